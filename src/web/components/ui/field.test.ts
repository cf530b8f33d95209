import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FieldError, fieldAria, fieldDescribedBy } from "./field";

describe("fieldAria", () => {
  it("marks a control valid with nothing to describe it when there is no error or hint", () => {
    expect(fieldAria("name", undefined)).toEqual({
      "aria-invalid": undefined,
      "aria-describedby": undefined,
    });
  });

  it("points at the error while one shows, and at the hint only while no error shows", () => {
    expect(fieldAria("name", { message: "Required" })).toEqual({
      "aria-invalid": true,
      "aria-describedby": "name-error",
    });
    expect(fieldAria("name", undefined, { hint: true })).toEqual({
      "aria-invalid": undefined,
      "aria-describedby": "name-hint",
    });
    // Field hides the hint while an error shows: no reference to an element that is gone.
    expect(fieldAria("name", { message: "Required" }, { hint: true })).toEqual({
      "aria-invalid": true,
      "aria-describedby": "name-error",
    });
  });

  it("agrees with fieldDescribedBy for controls wired by hand", () => {
    expect(fieldDescribedBy("x", { hint: true, error: true })).toBe("x-hint x-error");
  });
});

describe("FieldError", () => {
  it("shows a refusal as an alert under the id the control points at", () => {
    expect(renderToStaticMarkup(createElement(FieldError, { id: "name-error" }, "Required"))).toBe(
      '<p id="name-error" role="alert" class="text-xs font-medium text-red-700">Required</p>',
    );
  });

  it("shows nothing while there is no refusal", () => {
    expect(renderToStaticMarkup(createElement(FieldError, { id: "name-error" }))).toBe("");
    expect(renderToStaticMarkup(createElement(FieldError, { id: "name-error" }, ""))).toBe("");
  });
});
