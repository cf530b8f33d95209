import { parse } from "csv-parse/sync";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import * as XLSX from "xlsx";
import {
  EMPTY_ACTIVITY_DETAILS,
  EMPTY_REGULATOR_IDS,
  type Regulator,
  type RegulatorIds,
} from "../../../contract";
import { ceBrokerFile, ceBrokerRosterFor } from "./ce-broker-file";
import { cpeMonitorActivity } from "./cpe-monitor-activity";
import { type ParsActivityRecord, parsActivityFile } from "./pars-activity-file";
import { parsFile } from "./pars-file";
import type { ReportableClaim, ReportFormat } from "./report-format";

/*
 * Each regulator's layout read back by a reader of its own (SheetJS for the Excel learner
 * template, csv-parse counting tab-separated fields, fast-xml-parser checking element names
 * and order) and held to fixtures written from the published layouts, not from the writers.
 */

/**
 * ACCME's Excel learner template, 917_20240125_Learner_Excel_CME_MOC_Template.xlsx, as
 * stormchaser-creator/CredentialDOMD reads it (scripts/cme-import.test.mjs and the header
 * comment of src/utils/cmeImport.js): sheet "Sheet1", row 1 guidance, row 2 the header, and
 * the sample row "Add | 202212345 | 06/30/2022 | All | Learner | 09/10 | Maine | 1234567 |
 * 10 | ABIM | 999999 | 5 | Medical Knowledge | 1", its completion date an Excel date.
 * ACCME's "Excel Template Instructions for Submitting Learner Completion Data" (November 19,
 * 2025): records added or deleted; CME, MOC, REMS or combined in a single row.
 */
const PARS_LEARNER_TEMPLATE = {
  sheet: "Sheet1",
  header: [
    "Record Action",
    "ACCME Activity ID",
    "Completion Date",
    "First Name",
    "Last Name",
    "Date of Birth",
    "Licensing State",
    "Licensing ID or NPI",
    "Number of CME Credits",
    "Certifying Board",
    "Certifying Board ID",
    "Total Board Credits",
    "Credit Type ",
    "Credits Awarded for Credit Type",
    "Additional Credit Type",
  ],
  actions: ["Add", "Delete"],
};

/**
 * ACCME's tab-delimited activity template, Template D (reporting year 2015 and later), in the
 * order joshuairl/accme_lib (lib/accme_lib/pars/serializer.rb, University of Cincinnati)
 * writes a record, then 8 fields per commercial supporter; ACCME "Do you have any tips about
 * using the tab-delimited batch upload feature in PARS?": at least 43 fields in every record,
 * blank ones included, supporter fields repeated per supporter; "How Do I Conduct a
 * Tab-delimited Upload in PARS?": the Provider Activity ID required on every activity.
 */
const PARS_ACTIVITY_TEMPLATE = {
  fields: [
    "Template",
    "ACCME Activity ID",
    "Provider Activity ID",
    "Reporting Year",
    "Activity Title",
    "Activity Date",
    "City",
    "State",
    "Country",
    "Providership",
    "Activity Type",
    "Hours of Instruction",
    "# of Physicians",
    "# of Other Learners",
    "Commercial Support Received?",
    "Designed to change Competence?",
    "Changes in Competence evaluated?",
    "Designed to change Performance?",
    "Changes in Performance evaluated?",
    "Designed to change Patient Outcomes?",
    "Changes in Patient Outcomes evaluated?",
    "Sub-category: Case based discussion",
    "Sub-category: Lecture",
    "Sub-category: Panel",
    "Sub-category: Simulation",
    "Sub-category: Skill-based training",
    "Sub-category: Small group discussion",
    "Sub-category: Other",
    "Joint Provider(s)",
    "Number of AMA PRA Category 1 Credits Designated",
    "Description of Content",
    "ABMS/ACGME - Patient Care and Procedural Skills",
    "ABMS/ACGME - Medical Knowledge",
    "ABMS/ACGME - Practice-based Learning and Improvement",
    "ABMS/ACGME - Interpersonal and Communication Skills",
    "ABMS/ACGME - Professionalism",
    "ABMS/ACGME - Systems-based Practice",
    "Institute of Medicine - Provide patient-centered care",
    "Institute of Medicine - Work in interdisciplinary teams",
    "Institute of Medicine - Employ evidence-based practice",
    "Institute of Medicine - Apply quality improvement",
    "Institute of Medicine - Utilize informatics",
    "Interprofessional Education Collaborative - Values/Ethics for Interprofessional Practice",
    "Interprofessional Education Collaborative - Roles/Responsibilities",
    "Interprofessional Education Collaborative - Interprofessional Communication",
    "Interprofessional Education Collaborative - Teams and Teamwork",
    "Other Competencies - Competencies other than those listed were addressed",
  ],
  supporterFields: 8,
  minimumFields: 43,
  activityTypes: ["C", "CML", "EM", "IEM", "IL", "ISL", "JN", "LFT", "MR", "PI", "RSS", "TIW"],
};

/**
 * CE Broker's XML roster as DarLynnNovak/MyCMEFormDLLs serializes it
 * (MyCME/ProcessComponents/ACSCMECEPersonBuildXML.cs): rosters[@id_parent_provider,
 * @upload_key] › roster › id_provider, provider_course_code › attendees › attendee ›
 * licensee_profession, license, cebroker_state, first_name, last_name, date_completed
 * (MM/dd/yyyy), partial_credits › partial_credit › cd_profession, cd_subject_area,
 * partial_credit_hours. CE Broker, "Web Service Roster posting update Role 1 to Role 2": the
 * licence as its full number.
 */
const CE_BROKER_ROSTER = {
  roster: ["id_provider", "provider_course_code", "attendees"],
  attendee: [
    "licensee_profession",
    "license",
    "cebroker_state",
    "first_name",
    "last_name",
    "date_completed",
  ],
  partialCredit: ["cd_profession", "cd_subject_area", "partial_credit_hours"],
  date: /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/,
};

const ids = (extra: Partial<RegulatorIds> = {}): RegulatorIds => ({
  ...EMPTY_REGULATOR_IDS,
  firstName: "Ada",
  lastName: "Byron",
  birthMonth: 2,
  birthDay: 29,
  ...extra,
});

let n = 0;
function claim(
  regulator: Regulator,
  extra: Partial<ReportableClaim> & {
    activityId: string;
    providerId?: string;
    details?: Partial<typeof EMPTY_ACTIVITY_DETAILS>;
  },
): ReportableClaim {
  n++;
  const { activityId, providerId = "", details = {}, ...rest } = extra;
  return {
    key: `a${n}:0`,
    attestationId: `a${n}`,
    position: 0,
    learnerName: "Ada Byron",
    courseId: "c1",
    courseTitle: "Sepsis",
    creditTypeId: "t1",
    creditName: "credits",
    amount: 1.5,
    maxAmount: 1.5,
    completedAt: new Date("2026-03-05T23:30:00Z"),
    ids: ids(),
    activity: {
      regulator,
      activityId,
      providerId,
      details: { ...EMPTY_ACTIVITY_DETAILS, ...details },
    },
    ...rest,
  };
}

/** A file written of the claims the format accepts (added), with those it refuses. */
async function fileOf(format: ReportFormat, claims: ReportableClaim[]) {
  const refused = claims.flatMap((c) => {
    const reason = format.refusal(c);
    return reason ? [{ key: c.key, reason }] : [];
  });
  const accepted = claims.filter((c) => !format.refusal(c));
  const rows = accepted.map((c) => ({ action: "add" as const, values: format.values(c) }));
  return { bytes: await format.write!(rows), refused };
}

/** The element names under each `<name>` element, in document order. */
function childOrder(ordered: unknown, name: string): string[][] {
  const found: string[][] = [];
  const walk = (nodes: unknown) => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes as Record<string, unknown>[]) {
      for (const [key, value] of Object.entries(node)) {
        if (key === name) {
          found.push(
            (value as Record<string, unknown>[]).flatMap((child) =>
              Object.keys(child).filter((k) => k !== ":@" && k !== "#text"),
            ),
          );
        }
        if (key !== ":@") walk(value);
      }
    }
  };
  walk(ordered);
  return found;
}

describe("the PARS learner upload", () => {
  it("writes ACCME's Excel learner template: guidance, header, a row per learner and credit with its action", async () => {
    const moc = claim("pars", {
      activityId: "202212345",
      amount: 10,
      maxAmount: 10,
      completedAt: new Date("2022-06-30T15:00:00Z"),
      ids: ids({
        firstName: "All",
        lastName: "Learner",
        birthMonth: 9,
        birthDay: 10,
        licenceState: "ME",
        licenceNumber: "1234567",
        certifyingBoard: "ABIM",
        boardId: "999999",
      }),
      details: { mocBoard: "ABIM", mocCreditType: "Medical Knowledge" },
    });
    const npiOnly = claim("pars", {
      activityId: "202212345",
      ids: ids({ npi: "1234567893", certifyingBoard: "ABS", boardId: "55" }),
    });
    const boardElsewhere = claim("pars", {
      activityId: "202212345",
      ids: ids({ certifyingBoard: "ABS", boardId: "55" }),
    });
    const { refused } = await fileOf(parsFile, [moc, npiOnly, boardElsewhere]);
    expect(refused.map((r) => r.key)).toEqual([boardElsewhere.key]);
    const bytes = await parsFile.write!([
      { action: "delete", values: parsFile.values(npiOnly) },
      { action: "add", values: parsFile.values(moc) },
    ]);
    const book = XLSX.read(bytes, { type: "buffer" });
    expect(book.SheetNames).toEqual([PARS_LEARNER_TEMPLATE.sheet]);
    const sheet = book.Sheets[PARS_LEARNER_TEMPLATE.sheet]!;
    const table = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: "" });
    expect(table[0]![0]).toMatch(/header is row 2/);
    expect(table[1]).toEqual(PARS_LEARNER_TEMPLATE.header);
    const rows = table.slice(2);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toHaveLength(PARS_LEARNER_TEMPLATE.header.length);
      expect(PARS_LEARNER_TEMPLATE.actions).toContain(row[0]);
    }
    const col = (row: string[], name: string) => row[PARS_LEARNER_TEMPLATE.header.indexOf(name)];
    const [withdrawn, added] = rows as [string[], string[]];
    // The sample row's shape: MOC credit in the same row as CME, state by name, MM/DD birth.
    expect(added.slice(0, 2)).toEqual(["Add", "202212345"]);
    expect(added.slice(3)).toEqual([
      "All",
      "Learner",
      "09/10",
      "Maine",
      "1234567",
      "10",
      "ABIM",
      "999999",
      "10",
      "Medical Knowledge",
      "10",
      "",
    ]);
    // The completion date is a date cell, not text (the template's sample holds an Excel serial).
    const dateCell = sheet[XLSX.utils.encode_cell({ r: 3, c: 2 })]!;
    expect(dateCell.t).toBe("n");
    expect(XLSX.SSF.format("yyyy-mm-dd", dateCell.v as number)).toBe("2022-06-30");
    // The licence or, without one, the NPI in the one column; no MOC for another board.
    expect(col(withdrawn, "Record Action")).toBe("Delete");
    expect(col(withdrawn, "Licensing ID or NPI")).toBe("1234567893");
    expect(col(withdrawn, "Licensing State")).toBe("");
    expect(col(withdrawn, "Certifying Board")).toBe("");
  });
});

describe("the PARS activity upload", () => {
  const record = (extra: Partial<ParsActivityRecord> = {}): ParsActivityRecord => ({
    creditTypeId: "t1",
    creditName: "AMA PRA Category 1 Credits",
    activityId: "201234567",
    title: "Sepsis: early recognition",
    activityFormat: "IEM",
    providership: "direct",
    commercialSupport: false,
    details: { ...EMPTY_ACTIVITY_DETAILS, providerCode: "1001" },
    startDate: "2026-01-15",
    endDate: "2027-01-14",
    credits: 1.5,
    physicians: 3,
    otherLearners: 1,
    ...extra,
  });

  it("writes every field of the template in order, blank where unknown, supporters repeated", () => {
    const live = record({
      activityFormat: "C",
      providership: "joint",
      commercialSupport: true,
      details: {
        ...EMPTY_ACTIVITY_DETAILS,
        providerCode: "1002",
        city: "Portland",
        state: "OR",
        country: "USA",
        competencies: ["ABMS/ACGME - Medical Knowledge"],
        supporters: [
          { source: "Acme Pharma", amount: 5000 },
          { source: "Beta Devices", amount: 250.5 },
        ],
      },
    });
    const bytes = parsActivityFile.write([record(), live]);
    const lines = parse(bytes.toString("latin1"), {
      delimiter: "\t",
      record_delimiter: "\r\n",
      relax_column_count: true,
      quote: false,
    }) as string[][];
    expect(lines).toHaveLength(2);
    const width = PARS_ACTIVITY_TEMPLATE.fields.length;
    const [plain, held] = lines as [string[], string[]];
    expect(plain).toHaveLength(width + PARS_ACTIVITY_TEMPLATE.supporterFields);
    expect(held).toHaveLength(width + 2 * PARS_ACTIVITY_TEMPLATE.supporterFields);
    expect(plain.length).toBeGreaterThanOrEqual(PARS_ACTIVITY_TEMPLATE.minimumFields);
    const field = (row: string[], name: string) => row[PARS_ACTIVITY_TEMPLATE.fields.indexOf(name)];
    expect(field(plain, "Template")).toBe("Template D");
    expect(field(plain, "ACCME Activity ID")).toBe("201234567");
    expect(field(plain, "Provider Activity ID")).toBe("1001");
    expect(field(plain, "Reporting Year")).toBe("2026");
    expect(field(plain, "Activity Date")).toBe("01/15/2026");
    expect(field(plain, "City")).toBe("");
    expect(PARS_ACTIVITY_TEMPLATE.activityTypes).toContain(field(plain, "Activity Type"));
    expect(field(plain, "# of Physicians")).toBe("3");
    expect(field(plain, "Commercial Support Received?")).toBe("No");
    expect(field(plain, "ABMS/ACGME - Medical Knowledge")).toBe("");
    expect(plain.slice(width).every((v) => v === "")).toBe(true);
    expect([field(held, "City"), field(held, "State"), field(held, "Country")]).toEqual([
      "Portland",
      "OR",
      "USA",
    ]);
    expect(field(held, "Providership")).toBe("Joint");
    expect(field(held, "ABMS/ACGME - Medical Knowledge")).toBe("Yes");
    expect(field(held, "ABMS/ACGME - Professionalism")).toBe("No");
    expect(held.slice(width, width + 2)).toEqual(["Acme Pharma", "5000"]);
    expect(held.slice(width + 8, width + 10)).toEqual(["Beta Devices", "250.5"]);
  });

  it("refuses, naming every missing value, a record the upload cannot take", () => {
    expect(
      parsActivityFile.refusal(
        record({
          activityFormat: "RSS",
          commercialSupport: true,
          details: { ...EMPTY_ACTIVITY_DETAILS },
          startDate: null,
        }),
      ),
    ).toBe(
      "Missing from the activity record: provider activity ID, city, country, commercial supporters, release date (the activity's date).",
    );
  });
});

describe("the CE Broker roster", () => {
  it("writes rosters with the licence, the provider course code and partial credit by subject area", async () => {
    const course = {
      activityId: "20-845123",
      providerId: "50-1234",
      details: { providerCode: "77", subjectArea: "GEN-1" },
    };
    const whole = claim("ce_broker", {
      ...course,
      ids: ids({ licenceState: "FL", licenceNumber: "RN9876543", profession: "RN" }),
    });
    const part = claim("ce_broker", {
      ...course,
      amount: 1,
      maxAmount: 2,
      ids: ids({ firstName: "Grace", licenceState: "FL", licenceNumber: "RN1", profession: "RN" }),
    });
    const noSubject = claim("ce_broker", {
      ...course,
      details: { providerCode: "77" },
      amount: 1,
      maxAmount: 2,
      ids: ids({ licenceState: "FL", licenceNumber: "RN2", profession: "RN" }),
    });
    const { bytes, refused } = await fileOf(ceBrokerFile, [whole, part, noSubject]);
    expect(refused.map((r) => r.key)).toEqual([noSubject.key]);
    const text = ceBrokerRosterFor(bytes, "1234", "KEY&1").toString("utf8");
    expect(XMLValidator.validate(text)).toBe(true);
    const tree = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@",
      parseTagValue: false,
    }).parse(text);
    expect(tree.rosters["@id_parent_provider"]).toBe("1234");
    expect(tree.rosters["@upload_key"]).toBe("KEY&1");
    const ordered = new XMLParser({ preserveOrder: true, parseTagValue: false }).parse(text);
    expect(childOrder(ordered, "roster")).toEqual([CE_BROKER_ROSTER.roster]);
    expect(childOrder(ordered, "attendee")).toEqual([
      CE_BROKER_ROSTER.attendee,
      [...CE_BROKER_ROSTER.attendee, "partial_credits"],
    ]);
    expect(childOrder(ordered, "partial_credit")).toEqual([CE_BROKER_ROSTER.partialCredit]);
    const roster = tree.rosters.roster;
    expect([roster.id_provider, roster.provider_course_code]).toEqual(["1234", "77"]);
    const [first, second] = roster.attendees.attendee;
    expect(first.license).toBe("RN9876543");
    expect(first.date_completed).toMatch(CE_BROKER_ROSTER.date);
    expect(second.partial_credits.partial_credit).toEqual({
      cd_profession: "RN",
      cd_subject_area: "GEN-1",
      partial_credit_hours: "1",
    });
  });
});

describe("CPE Monitor's service parameters", () => {
  it("sends the e-Profile ID, MMDD birth date, UAN, participation date and action I; refuses a partial claim", () => {
    const uan = "0197-0000-26-105-H01-P";
    const whole = claim("cpe_monitor", {
      activityId: uan,
      ids: ids({ nabpEpid: "123456", birthMonth: 3, birthDay: 7 }),
    });
    expect(cpeMonitorActivity.values(whole)).toEqual(["123456", "0307", uan, "2026-03-05", "I"]);
    const partial = claim("cpe_monitor", {
      activityId: uan,
      amount: 1,
      maxAmount: 2,
      ids: ids({ nabpEpid: "123456" }),
    });
    expect(cpeMonitorActivity.refusal(partial)).toMatch(/whole 2 contact hours/);
  });
});
