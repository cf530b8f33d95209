import { isValidUan, missingRegulatorIds, REGULATOR_NAMES } from "../../../contract";
import {
  decimal,
  isoDate,
  type ReportableClaim,
  type ReportFormat,
  xmlElement,
  xmlText,
} from "./report-format";

/**
 * The elements of one completion in the CPE Monitor batch file, in order: the fields of a
 * pharmacist's or technician's activity as ACPE's CPE Monitor takes them (its "CPE Monitor
 * Technical Specifications", Data Specifications; the same fields its activity submission
 * service names): the NABP e-Profile ID, the month and day of birth as MMDD, the activity's
 * Universal Activity Number, the date of participation, and the action (I, insert).
 * docs/reporting.md cites each source.
 */
const CPE_MONITOR_ACTIVITY_ELEMENTS = [
  "epid",
  "date_of_birth",
  "uan",
  "date_of_participation",
  "action",
] as const;

const mmdd = (month: number | null, day: number | null) =>
  `${String(month ?? "").padStart(2, "0")}${String(day ?? "").padStart(2, "0")}`;

/** The ACPE provider number: the first four digits of a UAN. */
const providerOf = (uan: string) => uan.slice(0, 4);

/**
 * The CPE Monitor batch file: the ACPE provider number once, then one `<activity>` per
 * completion. ACPE awards an activity's whole contact hours (set by its UAN), so a claim of
 * less is refused rather than reported as if whole. UTF-8; dates YYYY-MM-DD.
 */
export const cpeMonitorFile: ReportFormat = {
  regulator: "cpe_monitor",
  fileNamePrefix: "cpe-monitor-batch",
  extension: "xml",
  contentType: "application/xml; charset=utf-8",

  refusal(claim: ReportableClaim) {
    if (!isValidUan(claim.activity.activityId)) return "The credit type has no ACPE UAN.";
    if (!claim.ids) {
      return `The learner claimed this credit before it reported to ${REGULATOR_NAMES.cpe_monitor}: no identifiers were given with the claim.`;
    }
    const missing = missingRegulatorIds("cpe_monitor", claim.ids);
    if (missing.length) return `Missing from the claim: ${missing.join(", ")}.`;
    if (claim.amount !== claim.maxAmount) {
      return `ACPE awards the activity's whole ${decimal(claim.maxAmount)} contact hours; this claim is for ${decimal(claim.amount)}.`;
    }
    return null;
  },

  fileKey: (claim: ReportableClaim) => providerOf(claim.activity.activityId),

  values(claim: ReportableClaim) {
    const ids = claim.ids!;
    return [
      ids.nabpEpid,
      mmdd(ids.birthMonth, ids.birthDay),
      claim.activity.activityId,
      isoDate(claim.completedAt),
      "I",
    ];
  },

  write(claims: ReportableClaim[]) {
    const provider = claims[0] ? providerOf(claims[0].activity.activityId) : "";
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<cpe_monitor_activities provider_number="${xmlText(provider)}">`,
    ];
    for (const claim of claims) {
      const values = cpeMonitorFile.values(claim);
      lines.push("  <activity>");
      CPE_MONITOR_ACTIVITY_ELEMENTS.forEach((name, i) => {
        lines.push(`    ${xmlElement(name, values[i] ?? "")}`);
      });
      lines.push("  </activity>");
    }
    lines.push("</cpe_monitor_activities>");
    return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
  },
};
