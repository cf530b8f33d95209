import { describe, expect, it } from "vitest";
import { isCorrect, scoreOf } from "./grading";

describe("grading", () => {
  it("rounds the score half up to a whole percent", () => {
    expect(scoreOf(1, 8)).toBe(13); // 12.5
    expect(scoreOf(2, 3)).toBe(67); // 66.67
    expect(scoreOf(1, 3)).toBe(33); // 33.33
    expect(scoreOf(7, 10)).toBe(70);
    expect(scoreOf(0, 20)).toBe(0);
    expect(scoreOf(20, 20)).toBe(100);
    expect(scoreOf(1, 200)).toBe(1); // 0.5
  });

  it("credits a question only for exactly its correct set", () => {
    const options = [
      { id: "a", text: "A", correct: true, feedback: null },
      { id: "b", text: "B", correct: true, feedback: null },
      { id: "c", text: "C", correct: false, feedback: null },
    ];
    expect(isCorrect(options, ["b", "a"])).toBe(true);
    expect(isCorrect(options, ["a"])).toBe(false);
    expect(isCorrect(options, ["a", "b", "c"])).toBe(false);
    expect(isCorrect(options, [])).toBe(false);
  });
});
