import type { LearnerImportPreviewRow, LearnerImportResultRow } from "@contract";
import { describe, expect, it } from "vitest";
import { rejectedRows, rejectedRowsCsv } from "./rejected-rows";

const previewRow = (line: number, overrides: Partial<LearnerImportPreviewRow> = {}) => ({
  line,
  name: `Learner ${line}`,
  email: `l${line}@example.com`,
  phone: "",
  coursesCell: "",
  courses: [],
  errors: [],
  ...overrides,
});

const result = (
  line: number,
  outcome: LearnerImportResultRow["outcome"],
  errors: string[] = [],
) => ({
  line,
  email: `l${line}@example.com`,
  outcome,
  userId: outcome === "registered" ? `u${line}` : null,
  enrolled: 0,
  invited: outcome === "registered",
  errors,
});

describe("rejected rows", () => {
  it("lists the preview's refusals and the import's, in file order", () => {
    const preview = [
      previewRow(2),
      previewRow(3, { errors: ["Enter a valid email address"] }),
      previewRow(4),
      previewRow(5),
    ];
    const results = [
      result(2, "registered"),
      result(4, "alreadyRegistered", ["This email is already registered"]),
      result(5, "rejected", ["Not imported: timeout"]),
    ];
    expect(rejectedRows(preview, results).map((r) => [r.row.line, r.errors])).toEqual([
      [3, ["Enter a valid email address"]],
      [4, ["This email is already registered"]],
      [5, ["Not imported: timeout"]],
    ]);
  });

  it("writes the original columns and the errors, safe to open in a spreadsheet", () => {
    const csv = rejectedRowsCsv([
      {
        row: previewRow(2, {
          name: '=HYPERLINK("x")',
          email: "bad",
          phone: "+1 555",
          coursesCell: "SQL; Design",
        }),
        errors: ["Enter a valid email address", 'No course is called "Design"'],
      },
    ]);
    expect(csv).toBe(
      "\ufeffname,email,phone,courses,error\r\n" +
        `"'=HYPERLINK(""x"")",bad,'+1 555,"SQL; Design","Enter a valid email address; No course is called ""Design"""\r\n`,
    );
  });
});
