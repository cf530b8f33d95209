import { isValidUan, missingRegulatorIds, REGULATOR_NAMES } from "../../../contract";
import { decimal, isoDate, type ReportableClaim, type ReportFormat } from "./report-format";

/**
 * The parameters of one completion sent to CPE Monitor's activity service
 * (`SubmitCPEActivityJSON`), in the order a public LMS integration sends them after the
 * provider number: the NABP e-Profile ID, the month and day of birth as MMDD, the activity's
 * Universal Activity Number, the date of participation (YYYY-MM-DD) and the action (I,
 * insert). The provider number and credentials come from the reporting settings.
 * docs/reporting.md cites each source.
 */
export const CPE_MONITOR_PARAMETERS = [
  "epid",
  "date_of_birth",
  "uan",
  "date_of_participation",
  "action",
] as const;

const mmdd = (month: number | null, day: number | null) =>
  `${String(month ?? "").padStart(2, "0")}${String(day ?? "").padStart(2, "0")}`;

/**
 * CPE Monitor's completions, as its web service takes them one by one. ACPE awards an
 * activity's whole contact hours (set by its UAN), so a claim of less is refused rather than
 * reported as if whole, and a completion outside the activity's registered dates (when the
 * course gives them) is refused before it is sent. There is no file: cpe-monitor.service.ts submits each claim.
 */
export const cpeMonitorActivity: ReportFormat = {
  regulator: "cpe_monitor",
  fileNamePrefix: "cpe-monitor",
  extension: "xml",
  contentType: "application/json",

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
    // CPE Monitor refuses a participation date outside the activity's registered dates:
    // said here, before anything is sent, rather than learnt from the refusal.
    const { registeredFrom, registeredTo } = claim.activity.details;
    const participated = isoDate(claim.completedAt);
    if (registeredFrom && (participated < registeredFrom || participated > registeredTo)) {
      return `Completed on ${participated}, outside the activity's registered dates in CPE Monitor (${registeredFrom} to ${registeredTo}): CPE Monitor would refuse it. Correct the registered dates with ACPE, then here.`;
    }
    return null;
  },

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
};
