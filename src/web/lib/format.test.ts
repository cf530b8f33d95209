import { describe, expect, it } from "vitest";
import { capitalised, greetingName, listText, plural, sentence } from "./format";

describe("plural", () => {
  it("counts one or many", () => {
    expect(plural(1, "module")).toBe("1 module");
    expect(plural(3, "hour")).toBe("3 hours");
    expect(plural(2, "child", "children")).toBe("2 children");
  });
});

describe("sentences about people", () => {
  it("greets by the first name, past a courtesy title", () => {
    expect(greetingName("Dr. Jane Smith")).toBe("Jane");
    expect(greetingName("  Ada   Lovelace ")).toBe("Ada");
    expect(greetingName("Prof Grace Hopper")).toBe("Grace");
    expect(greetingName("Dr.")).toBe("Dr.");
    expect(greetingName("J. R. R. Tolkien")).toBe("J.");
  });

  it("ends a sentence with one full stop, whatever the name ends with", () => {
    expect(sentence("Welcome, Ada")).toBe("Welcome, Ada.");
    expect(sentence("Welcome, Dr.")).toBe("Welcome, Dr.");
    expect(sentence(`Welcome, ${greetingName("J. R. R. Tolkien")}`)).toBe("Welcome, J.");
  });

  it("lists and capitalises", () => {
    expect(listText([])).toBe("");
    expect(listText(["contact hours"])).toBe("contact hours");
    expect(listText(["a", "b", "c"])).toBe("a, b and c");
    expect(capitalised("contact hours")).toBe("Contact hours");
  });
});
