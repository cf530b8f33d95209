import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "./csv";

/** Splits one line as a spreadsheet of the given locale does: quoted fields stay whole. */
function splitAs(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === separator) {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}

describe("CSV fields", () => {
  it("neutralises a leading formula character", () => {
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(csvField(text).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvField(-3)).toBe("-3");
  });

  it("never lets a cell start a formula in a locale that splits on ; or tab", () => {
    const hostile = ["Intro;=1+1", "Intro\t=1+1", "a;+cmd", "x;@SUM(A1)", "Intro,=1+1"];
    const line = csvRow(hostile).trimEnd();
    for (const separator of [",", ";", "\t"]) {
      const cells = splitAs(line, separator);
      for (const cell of cells)
        expect(cell, `${JSON.stringify(separator)}: ${cell}`).not.toMatch(/^[=+\-@]/);
    }
    expect(splitAs(line, ",")).toEqual(hostile);
  });

  it("quotes and doubles embedded quotes, keeps plain text as it is", () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("Plain text 12")).toBe("Plain text 12");
    expect(csvRow(["a", null, 3])).toBe("a,,3\r\n");
  });
});
