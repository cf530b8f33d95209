import type { Cmi5Status } from "@contract";
import { describe, expect, it } from "vitest";
import { statusRefresh } from "./get-cmi5-status";

const au = (satisfied: boolean): Cmi5Status["aus"][number] => ({
  id: `au-${satisfied}`,
  title: "Unit",
  moveOn: "Completed",
  launchMethod: "AnyWindow",
  launched: true,
  completed: satisfied,
  passed: false,
  failed: false,
  waived: null,
  satisfied,
  scoreScaled: null,
});

const status = (moduleCompleted: boolean, ...units: boolean[]): Cmi5Status => ({
  registration: "registration-1",
  satisfied: units.every(Boolean),
  moduleCompleted,
  aus: units.map(au),
});

describe("the cmi5 player's status reads", () => {
  it("reads again every few seconds while a unit is open and the module is not settled", () => {
    expect(statusRefresh(true, undefined)).toBe(3000);
    expect(statusRefresh(true, status(false, true, false))).toBe(3000);
    // Every unit satisfied, the module waiting for its seat time.
    expect(statusRefresh(true, status(false, true, true))).toBe(3000);
  });

  it("stops once the module is complete with every unit satisfied, or no unit is open", () => {
    expect(statusRefresh(true, status(true, true, true))).toBe(false);
    expect(statusRefresh(false, status(false, true, false))).toBe(false);
  });
});
