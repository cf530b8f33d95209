import { describe, expect, it } from "vitest";
import { plural } from "./format";

describe("plural", () => {
  it("counts one or many", () => {
    expect(plural(1, "module")).toBe("1 module");
    expect(plural(3, "hour")).toBe("3 hours");
    expect(plural(2, "child", "children")).toBe("2 children");
  });
});
