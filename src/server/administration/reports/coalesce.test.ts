import { describe, expect, it } from "vitest";
import { coalesce } from "./coalesce";

/** A run in progress until the test lets it finish. */
function gate() {
  let open = () => {};
  const passed = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { passed, open };
}

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
    const gates = [gate(), gate()];
    const load = coalesce(async () => {
      const seen = value;
      await gates[runs++]!.passed;
      return seen;
    });
    const first = load();
    value = 1; // a write committed after the first run read the data
    const later = [load(), load(), load()];
    // The later callers do not start a run of their own while the first one is under way.
    expect(runs).toBe(1);
    gates[0]!.open();
    expect(await first).toBe(0);
    gates[1]!.open();
    // Every later caller sees the write made before it called.
    expect(await Promise.all(later)).toEqual([1, 1, 1]);
    expect(runs).toBe(2);
  });

  it("passes a failure to that run's callers only", async () => {
    let fail = true;
    let runs = 0;
    const gates = [gate(), gate()];
    const load = coalesce(async () => {
      const failing = fail;
      await gates[runs++]!.passed;
      if (failing) throw new Error("boom");
      return "ok";
    });
    const first = load();
    const second = load();
    fail = false;
    gates[0]!.open();
    await expect(first).rejects.toThrow("boom");
    gates[1]!.open();
    await expect(second).resolves.toBe("ok");
  });
});
