import { describe, expect, it } from "vitest";
import { coalesce } from "./coalesce";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("coalesce", () => {
  it("runs once for a lone caller and again for the next one", async () => {
    let runs = 0;
    const load = coalesce(async () => ++runs);
    expect(await load()).toBe(1);
    expect(await load()).toBe(2);
  });

  it("serves callers that arrive during a run from one later run, never the earlier one", async () => {
    let value = 0;
    let runs = 0;
    const load = coalesce(async () => {
      runs++;
      const seen = value;
      await tick();
      return seen;
    });
    const first = load();
    value = 1; // a write committed after the first run read the data
    const later = [load(), load(), load()];
    expect(await first).toBe(0);
    // Every later caller sees the write made before it called.
    expect(await Promise.all(later)).toEqual([1, 1, 1]);
    expect(runs).toBe(2);
  });

  it("passes a failure to that run's callers only", async () => {
    let fail = true;
    const load = coalesce(async () => {
      const failing = fail;
      await tick();
      if (failing) throw new Error("boom");
      return "ok";
    });
    const first = load();
    const second = load();
    fail = false;
    await expect(first).rejects.toThrow("boom");
    await expect(second).resolves.toBe("ok");
  });
});
