import { parse } from "csv-parse/sync";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { EMPTY_REGULATOR_IDS, type Regulator, type RegulatorIds } from "../../../contract";
import { ceBrokerFile } from "./ce-broker-file";
import { cpeMonitorFile } from "./cpe-monitor-file";
import { type ParsActivityRecord, parsActivityFile } from "./pars-activity-file";
import { parsFile } from "./pars-file";
import type { ReportableClaim, ReportFormat } from "./report-format";

/*
 * Each regulator's file parsed by an independent parser (csv-parse for the tab-delimited
 * text, fast-xml-parser for XML) and held to the layout its published instructions give.
 * The expected layouts below are written from those documents, not from the writers:
 *
 * PARS learner upload: ACCME, "PARS Tab Delimited Participant Upload Instructions – Learner
 *   Template B" (last update April 23, 2020;
 *   https://vdocuments.mx/overview-contents-accreditation-council-for-continuing-apr-23-2020-.html)
 *   and "Excel Template Instructions for Submitting Learner Completion Data"
 *   (http://accme.org/resource/excel-learner-upload-instructions/, 2025): the Excel template
 *   saved as a tab-delimited .txt, its header row removed, every field of a record present
 *   (empty when unknown); ACCME "CME Credit Reporting Checklist"
 *   (https://accme.org/publications/cme-credit-reporting-checklist): first and last name,
 *   month and day of birth (no year), state of licensure, state licence ID; ACCME FAQ on MOC
 *   learner data: the diplomate's board ID; dates MM/DD/YYYY.
 * PARS activity upload: ACCME FAQ "What activity data are providers required to enter into
 *   PARS?" (https://www.accme.org/faq/what-activity-data-are-providers-required-enter-pars):
 *   title, format, start and end date, AMA PRA Category 1 amount, providership
 *   (Direct/Joint), commercial support Yes/No, total physician and other learner counts ("0"
 *   when none); "Do you have any tips about using the tab-delimited batch upload feature in
 *   PARS?" (http://www.accme.org/ask-accme/do-you-have-any-tips-about-using-tab-delimited-batch-upload-feature-pars):
 *   a .txt file, every field present even when empty; "Enduring Material"
 *   (https://accme.org/resource/enduring-material): the start date is the first day the
 *   activity is available, the end date its expiration.
 * CE Broker roster: CE Broker Help Center, "XML: Parent and Child Providers – Creating courses
 *   and submitting completions" (rosters sent as XML), "Web Service Roster posting update
 *   Role 1 to Role 2" (the licence as its full number), the XML publishing format (tracking
 *   numbers without their 50-/20- prefixes, dates MM/DD/YYYY); "Creating Excel Files (Full
 *   Course Credit)" (https://help.cebroker.com/hc/en-us/articles/15226514662548): the same
 *   data for each attendee of a roster (provider and course tracking numbers without
 *   prefixes, licence number, completion date, the licence's state, the profession code).
 * CPE Monitor: ACPE, "CPE Monitor Technical Specifications" (last modified 11/30/2017), Data
 *   Specifications; NABP/ACPE CPE Monitor FAQs: the NABP e-Profile ID and the date of birth as
 *   MMDD; the activity's UAN and the date of participation.
 */

const PARS_TEMPLATE = {
  columns: [
    "PARS Activity ID",
    "Learner First Name",
    "Learner Last Name",
    "Date of Birth Month",
    "Date of Birth Day",
    "State of Licensure",
    "State License ID",
    "Certifying Board",
    "Board ID",
    "NPI",
    "Completion Date",
    "CME Credits",
  ],
  date: /^(0[1-9]|1[0-2])\/(0[1-9]|[12]\d|3[01])\/\d{4}$/,
};
/** The PARS activity record's fields in the order ACCME's FAQ lists them, the activity ID first. */
const PARS_ACTIVITY_TEMPLATE = {
  columns: [
    "PARS Activity ID",
    "Activity Title",
    "Activity Format",
    "Start Date",
    "End Date",
    "AMA PRA Category 1 Credits",
    "Providership",
    "Commercial Support Received",
    "Physician Learners",
    "Other Learners",
  ],
  date: PARS_TEMPLATE.date,
  providership: ["Direct", "Joint"],
  yesNo: ["Yes", "No"],
  count: /^\d+$/,
};
const CE_BROKER_ATTENDEE = [
  "licensee_profession",
  "full_license_number",
  "cebroker_state",
  "first_name",
  "last_name",
  "date_completed",
];
const CPE_MONITOR_ACTIVITY = ["epid", "date_of_birth", "uan", "date_of_participation", "action"];

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
  extra: Partial<ReportableClaim> & { activityId: string; providerId?: string },
): ReportableClaim {
  n++;
  const { activityId, providerId = "", ...rest } = extra;
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
    activity: { regulator, activityId, providerId },
    ...rest,
  };
}

/** A file written of the claims the format accepts; those it refuses, with their reasons. */
function fileOf(format: ReportFormat, claims: ReportableClaim[]) {
  const refused = claims.flatMap((c) => {
    const reason = format.refusal(c);
    return reason ? [{ key: c.key, reason }] : [];
  });
  const accepted = claims.filter((c) => !format.refusal(c));
  return { bytes: format.write(accepted), refused };
}

const xml = (bytes: Buffer) => {
  const text = bytes.toString("utf8");
  expect(XMLValidator.validate(text)).toBe(true);
  expect(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\r\n')).toBe(true);
  return {
    text,
    tree: new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@",
      parseTagValue: false,
      isArray: (name) => ["roster", "attendee", "activity"].includes(name),
    }).parse(text),
    ordered: new XMLParser({ preserveOrder: true, parseTagValue: false }).parse(text),
  };
};

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
  it("writes the learner template as tab-delimited Latin-1 text, every column in order, no header", () => {
    const physician = claim("pars", {
      activityId: "201234567",
      ids: ids({
        firstName: "Zoë",
        lastName: '=HYPERLINK("http://x")',
        licenceState: "OR",
        licenceNumber: "MD\t204518",
        npi: "1234567893",
      }),
    });
    const diplomate = claim("pars", {
      activityId: "201234567",
      amount: 0.25,
      ids: ids({ birthMonth: 11, birthDay: 3, certifyingBoard: "ABIM", boardId: "123456" }),
    });
    const { bytes, refused } = fileOf(parsFile, [physician, diplomate]);
    expect(refused).toEqual([]);
    // ISO-8859-1: ë is the one byte 0xEB, no byte-order mark.
    expect(bytes.includes(Buffer.from([0xeb]))).toBe(true);
    expect(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    const records = parse(bytes, {
      encoding: "latin1",
      delimiter: "\t",
      record_delimiter: "\r\n",
      quote: false,
    }) as string[][];
    expect(records).toHaveLength(2);
    for (const record of records) expect(record).toHaveLength(PARS_TEMPLATE.columns.length);
    const column = (record: string[], name: string) => record[PARS_TEMPLATE.columns.indexOf(name)];
    const [first, second] = records as [string[], string[]];
    expect(column(first, "PARS Activity ID")).toBe("201234567");
    expect(column(first, "Learner First Name")).toBe("Zoë");
    // A formula is made text; a tab inside a value is a space, never a new column.
    expect(column(first, "Learner Last Name")).toBe('\'=HYPERLINK("http://x")');
    expect(column(first, "State License ID")).toBe("MD 204518");
    expect(column(first, "Date of Birth Month")).toBe("02");
    expect(column(first, "Date of Birth Day")).toBe("29");
    expect(column(first, "NPI")).toBe("1234567893");
    expect(column(first, "Certifying Board")).toBe("");
    // The completion's UTC day, MM/DD/YYYY; the credits as a plain decimal.
    expect(column(first, "Completion Date")).toMatch(PARS_TEMPLATE.date);
    expect(column(first, "Completion Date")).toBe("03/05/2026");
    expect(column(first, "CME Credits")).toBe("1.5");
    expect(column(second, "Date of Birth Month")).toBe("11");
    expect(column(second, "Date of Birth Day")).toBe("03");
    expect(column(second, "Certifying Board")).toBe("ABIM");
    expect(column(second, "Board ID")).toBe("123456");
    expect(column(second, "State of Licensure")).toBe("");
    expect(column(second, "CME Credits")).toBe("0.25");
    // Every line ends CRLF, the last included.
    expect(bytes.toString("latin1").split("\r\n")).toEqual([
      expect.any(String),
      expect.any(String),
      "",
    ]);
  });

  it("refuses, with the reason, the claims the template cannot take", () => {
    const cases = [
      claim("pars", { activityId: "", ids: ids({ licenceState: "OR", licenceNumber: "1" }) }),
      claim("pars", { activityId: "201234567", ids: null }),
      claim("pars", { activityId: "201234567", ids: ids() }),
      claim("pars", {
        activityId: "201234567",
        ids: ids({ lastName: "Иванова", licenceState: "OR", licenceNumber: "1" }),
      }),
      claim("pars", {
        activityId: "201234567",
        ids: ids({ birthMonth: null, birthDay: null, licenceState: "OR", licenceNumber: "1" }),
      }),
    ];
    const { bytes, refused } = fileOf(parsFile, cases);
    expect(bytes.length).toBe(0);
    expect(refused.map((r) => r.reason)).toEqual([
      "The credit type has no PARS activity ID.",
      "The learner claimed this credit before it reported to ACCME PARS: no identifiers were given with the claim.",
      "Missing from the claim: state licence or certifying board ID.",
      "PARS reads Latin-1 text: the name or licence holds letters it cannot store.",
      "Missing from the claim: month and day of birth.",
    ]);
  });
});

describe("the PARS activity upload", () => {
  const record = (extra: Partial<ParsActivityRecord> = {}): ParsActivityRecord => ({
    creditTypeId: "t1",
    creditName: "AMA PRA Category 1 Credit™",
    activityId: "201234567",
    title: "Sepsis: Early Recognition",
    activityFormat: "IEM",
    providership: "joint",
    commercialSupport: false,
    startDate: "2026-01-01",
    endDate: "2028-12-31",
    credits: 1.5,
    physicians: 12,
    otherLearners: 0,
    ...extra,
  });
  const read = (bytes: Buffer) =>
    parse(bytes, {
      encoding: "latin1",
      delimiter: "\t",
      record_delimiter: "\r\n",
      quote: false,
    }) as string[][];

  it("writes each record as tab-delimited Latin-1 text, every column in order, no header", () => {
    const records = [
      record(),
      record({
        activityId: "201234568",
        title: "=Café\tcases",
        activityFormat: "EM",
        providership: "direct",
        commercialSupport: true,
        credits: 0.25,
        physicians: 0,
        otherLearners: 7,
      }),
    ];
    for (const r of records) expect(parsActivityFile.refusal(r)).toBeNull();
    const bytes = parsActivityFile.write(records);
    expect(bytes.includes(Buffer.from([0xe9]))).toBe(true);
    expect(bytes.toString("latin1").split("\r\n")).toHaveLength(3);
    const rows = read(bytes);
    expect(rows).toHaveLength(2);
    const column = (row: string[], name: string) =>
      row[PARS_ACTIVITY_TEMPLATE.columns.indexOf(name)];
    for (const row of rows) {
      expect(row).toHaveLength(PARS_ACTIVITY_TEMPLATE.columns.length);
      expect(column(row, "Start Date")).toMatch(PARS_ACTIVITY_TEMPLATE.date);
      expect(column(row, "End Date")).toMatch(PARS_ACTIVITY_TEMPLATE.date);
      expect(PARS_ACTIVITY_TEMPLATE.providership).toContain(column(row, "Providership"));
      expect(PARS_ACTIVITY_TEMPLATE.yesNo).toContain(column(row, "Commercial Support Received"));
      expect(column(row, "Physician Learners")).toMatch(PARS_ACTIVITY_TEMPLATE.count);
      expect(column(row, "Other Learners")).toMatch(PARS_ACTIVITY_TEMPLATE.count);
    }
    expect(rows[0]).toEqual([
      "201234567",
      "Sepsis: Early Recognition",
      "IEM",
      "01/01/2026",
      "12/31/2028",
      "1.5",
      "Joint",
      "No",
      "12",
      "0",
    ]);
    // A formula is made text; a tab inside the title is a space, never a new column.
    expect(column(rows[1]!, "Activity Title")).toBe("'=Café cases");
    expect(rows[1]!.slice(2)).toEqual([
      "EM",
      "01/01/2026",
      "12/31/2028",
      "0.25",
      "Direct",
      "Yes",
      "0",
      "7",
    ]);
  });

  it("refuses, naming every missing value, a record the upload cannot take", () => {
    expect(
      [
        record({ activityId: "" }),
        record({ activityFormat: "", providership: "", commercialSupport: null }),
        record({ startDate: null, endDate: null }),
        record({ title: "Сепсис" }),
      ].map((r) => parsActivityFile.refusal(r)),
    ).toEqual([
      "The credit type has no PARS activity ID.",
      "Missing from the activity record: activity format, providership, whether commercial support was received.",
      "Missing from the activity record: release date (the activity's start date), expiration date (the activity's end date).",
      "PARS reads Latin-1 text: the course title holds letters it cannot store.",
    ]);
  });
});

describe("the CE Broker roster", () => {
  const nurse = (extra: Partial<RegulatorIds> = {}) =>
    ids({ profession: "RN", licenceState: "FL", licenceNumber: "RN9876543", ...extra });

  it("writes one roster per course with its attendees, elements in order, tracking numbers without prefixes", () => {
    const { bytes, refused } = fileOf(ceBrokerFile, [
      claim("ce_broker", { activityId: "20-845123", providerId: "50-1234", ids: nurse() }),
      claim("ce_broker", {
        activityId: "20-845123",
        providerId: "50-1234",
        ids: nurse({ lastName: "O'Neil & <Sons>", licenceNumber: "RN1" }),
      }),
      claim("ce_broker", {
        activityId: "20-900001",
        providerId: "50-1234",
        ids: nurse({ firstName: "+SUM(A1)" }),
      }),
    ]);
    expect(refused).toEqual([]);
    const { tree, ordered } = xml(bytes);
    expect(tree.rosters["@id_parent_provider"]).toBe("1234");
    const rosters = tree.rosters.roster as Record<string, unknown>[];
    expect(rosters.map((r) => [r.id_provider, r.id_course])).toEqual([
      ["1234", "845123"],
      ["1234", "900001"],
    ]);
    const attendees = rosters.flatMap(
      (r) => (r.attendees as { attendee: Record<string, string>[] }).attendee,
    );
    for (const order of childOrder(ordered, "attendee")) expect(order).toEqual(CE_BROKER_ATTENDEE);
    expect(childOrder(ordered, "roster")).toEqual([
      ["id_provider", "id_course", "attendees"],
      ["id_provider", "id_course", "attendees"],
    ]);
    expect(attendees[0]).toEqual({
      licensee_profession: "RN",
      full_license_number: "RN9876543",
      cebroker_state: "FL",
      first_name: "Ada",
      last_name: "Byron",
      date_completed: "03/05/2026",
    });
    // Escaped, read back as typed; a formula is made text.
    expect(attendees[1]!.last_name).toBe("O'Neil & <Sons>");
    expect(attendees[2]!.first_name).toBe("'+SUM(A1)");
  });

  it("refuses partial credit, a missing licence and a course without its tracking numbers", () => {
    const { refused } = fileOf(ceBrokerFile, [
      claim("ce_broker", {
        activityId: "20-845123",
        providerId: "50-1234",
        amount: 0.5,
        ids: nurse(),
      }),
      claim("ce_broker", {
        activityId: "20-845123",
        providerId: "50-1234",
        ids: nurse({ profession: "" }),
      }),
      claim("ce_broker", { activityId: "20-845123", providerId: "", ids: nurse() }),
      claim("ce_broker", { activityId: "", providerId: "50-1234", ids: nurse() }),
    ]);
    expect(refused.map((r) => r.reason)).toEqual([
      "CE Broker records less than the course's 1.5 hours only with a subject area: report 0.5 hours in CE Broker by hand.",
      "Missing from the claim: profession.",
      "The credit type has no CE Broker provider tracking number.",
      "The credit type has no CE Broker course tracking number.",
    ]);
  });
});

describe("the CPE Monitor batch file", () => {
  const uan = "0197-0000-26-105-H01-P";

  it("writes each completion's e-Profile ID, MMDD birth date, UAN and participation date", () => {
    const { bytes, refused } = fileOf(cpeMonitorFile, [
      claim("cpe_monitor", { activityId: uan, ids: ids({ nabpEpid: "1234567" }) }),
      claim("cpe_monitor", {
        activityId: uan,
        ids: ids({ nabpEpid: "654321", birthMonth: 1, birthDay: 9 }),
      }),
    ]);
    expect(refused).toEqual([]);
    const { tree, ordered } = xml(bytes);
    expect(tree.cpe_monitor_activities["@provider_number"]).toBe("0197");
    for (const order of childOrder(ordered, "activity"))
      expect(order).toEqual(CPE_MONITOR_ACTIVITY);
    expect(tree.cpe_monitor_activities.activity).toEqual([
      {
        epid: "1234567",
        date_of_birth: "0229",
        uan,
        date_of_participation: "2026-03-05",
        action: "I",
      },
      {
        epid: "654321",
        date_of_birth: "0109",
        uan,
        date_of_participation: "2026-03-05",
        action: "I",
      },
    ]);
  });

  it("refuses a partial claim and a claim without an e-Profile ID", () => {
    const { refused } = fileOf(cpeMonitorFile, [
      claim("cpe_monitor", { activityId: uan, amount: 1, ids: ids({ nabpEpid: "1234567" }) }),
      claim("cpe_monitor", { activityId: uan, ids: ids() }),
      claim("cpe_monitor", { activityId: "", ids: ids({ nabpEpid: "1234567" }) }),
    ]);
    expect(refused.map((r) => r.reason)).toEqual([
      "ACPE awards the activity's whole 1.5 contact hours; this claim is for 1.",
      "Missing from the claim: NABP e-Profile ID.",
      "The credit type has no ACPE UAN.",
    ]);
  });
});
