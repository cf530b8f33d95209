import { describe, expect, it } from "vitest";
import { parseCsv } from "../testing/csv";
import { csvField, csvRow, fileNamePart } from "./csv";

describe("CSV fields", () => {
  it("neutralises a leading formula character", () => {
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(csvField(text).replace(/^"/, "")).toMatch(/^'/);
    }
    expect(csvField(-3)).toBe("-3");
    // An id (base64url) reads back exactly, though it may start with "-".
    expect(csvField("-x8Qe_Wk2LrT5vN0aZc3Yg")).toBe("-x8Qe_Wk2LrT5vN0aZc3Yg");
  });

  it("never lets a cell start a formula in a locale that splits on ; or tab", () => {
    const hostile = [
      "Intro;=1+1",
      "Intro\t=1+1",
      "a;+cmd",
      "x;@SUM(A1)",
      "Intro,=1+1",
      "RN;=cmd|' /C calc'!A0;x",
      'y;"=1',
      "line\r\n-2",
    ];
    const line = csvRow(hostile).trimEnd();
    for (const separator of [",", ";", "\t"]) {
      const cells = parseCsv(line, separator)[0]!;
      for (const cell of cells)
        expect(cell, `${JSON.stringify(separator)}: ${cell}`).not.toMatch(/^[=+\-@]/);
    }
    // A reader that splits lines and cells before looking at quotes finds no formula either.
    for (const cell of line.split(/\r\n|\n|\r/).flatMap((l) => l.split(/[;\t]/))) {
      expect(cell.replace(/^"+|"+$/g, ""), cell).not.toMatch(/^[=+\-@\t\r]/);
    }
    // What was typed stays readable: only a ' marks each formula start.
    expect(parseCsv(line, ",")[0]).toEqual([
      "Intro;'=1+1",
      "Intro\t'=1+1",
      "a;'+cmd",
      "x;'@SUM(A1)",
      "Intro,=1+1",
      "RN;'=cmd|' /C calc'!A0;x",
      `y;'"=1`,
      "line\r\n'-2",
    ]);
  });

  it("quotes and doubles embedded quotes, keeps plain text as it is", () => {
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("Plain text 12")).toBe("Plain text 12");
    expect(csvRow(["a", null, 3])).toBe("a,,3\r\n");
  });
});

describe("download file names", () => {
  it("keep a title's letters and digits, accents dropped, other runs one dash", () => {
    expect(fileNamePart("Clinical Ethics: Résumé 2026")).toBe("Clinical-Ethics-Resume-2026");
    expect(fileNamePart('  "Quotes" / slashes\\ ')).toBe("Quotes-slashes");
    expect(fileNamePart("Этика")).toBe("course");
    expect(fileNamePart("x".repeat(100))).toHaveLength(60);
  });
});
