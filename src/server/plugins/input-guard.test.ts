import { describe, expect, it } from "vitest";
import { MOST_JSON_DEPTH, nestedDeeperThan } from "./input-guard";

describe("how deep a JSON body nests", () => {
  const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

  it("counts arrays and objects opened inside each other, up to the bound and past it", () => {
    expect(nestedDeeperThan(nested(MOST_JSON_DEPTH), MOST_JSON_DEPTH)).toBe(false);
    expect(nestedDeeperThan(nested(MOST_JSON_DEPTH + 1), MOST_JSON_DEPTH)).toBe(true);
    expect(nestedDeeperThan('{"a":{"b":[1,{"c":2}]},"d":[]}', 4)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":[1,{"c":2}]},"d":[]}', 3)).toBe(true);
  });

  it("never counts brackets inside strings, escaped quotes included", () => {
    expect(nestedDeeperThan(`{"text":"${"[{".repeat(100)}"}`, 1)).toBe(false);
    expect(nestedDeeperThan('{"text":"a \\"quoted\\" [[[[ word"}', 1)).toBe(false);
    expect(nestedDeeperThan('["\\\\",[[]]]', 2)).toBe(true);
  });
});
