import {
  isValidCeBrokerCourse,
  isValidCeBrokerProvider,
  missingRegulatorIds,
  REGULATOR_NAMES,
} from "../../../contract";
import {
  decimal,
  type ReportableClaim,
  type ReportFormat,
  trackingDigits,
  usDate,
  xmlElement,
  xmlText,
} from "./report-format";

/**
 * The elements of one attendee of a CE Broker roster, in order: CE Broker's XML roster
 * (course completions sent system to system, by upload or its web service), with the licence
 * as the full number the state's verification database shows (CE Broker's "Role 1 to Role 2"
 * roster update). docs/reporting.md cites each source.
 */
const CE_BROKER_ATTENDEE_ELEMENTS = [
  "licensee_profession",
  "full_license_number",
  "cebroker_state",
  "first_name",
  "last_name",
  "date_completed",
] as const;

/**
 * CE Broker's roster upload: `<rosters>` for the provider, one `<roster>` per course tracking
 * number with its attendees. Tracking numbers are written without their 50- and 20-
 * prefixes, dates as MM/DD/YYYY, UTF-8. The upload key CE Broker gives the provider is a
 * credential: it is added when the file is sent, never stored in it.
 */
export const ceBrokerFile: ReportFormat = {
  regulator: "ce_broker",
  fileNamePrefix: "ce-broker-roster",
  extension: "xml",
  contentType: "application/xml; charset=utf-8",

  refusal(claim: ReportableClaim) {
    if (!isValidCeBrokerCourse(claim.activity.activityId)) {
      return "The credit type has no CE Broker course tracking number.";
    }
    if (!isValidCeBrokerProvider(claim.activity.providerId)) {
      return "The credit type has no CE Broker provider tracking number.";
    }
    if (!claim.ids) {
      return `The learner claimed this credit before it reported to ${REGULATOR_NAMES.ce_broker}: no identifiers were given with the claim.`;
    }
    const missing = missingRegulatorIds("ce_broker", claim.ids);
    if (missing.length) return `Missing from the claim: ${missing.join(", ")}.`;
    // A roster awards the course's hours; partial credit needs the board's subject area code.
    if (claim.amount !== claim.maxAmount) {
      return `CE Broker records less than the course's ${decimal(claim.maxAmount)} hours only with a subject area: report ${decimal(claim.amount)} hours in CE Broker by hand.`;
    }
    return null;
  },

  fileKey: (claim: ReportableClaim) => claim.activity.providerId,

  values(claim: ReportableClaim) {
    const ids = claim.ids!;
    return [
      trackingDigits(claim.activity.providerId),
      trackingDigits(claim.activity.activityId),
      ids.profession,
      ids.licenceNumber,
      ids.licenceState,
      ids.firstName,
      ids.lastName,
      usDate(claim.completedAt),
    ];
  },

  write(claims: ReportableClaim[]) {
    const rosters = new Map<string, string[][]>();
    for (const claim of claims) {
      const [provider, course, ...attendee] = ceBrokerFile.values(claim);
      const key = `${provider}\u0000${course}`;
      rosters.set(key, [...(rosters.get(key) ?? []), attendee]);
    }
    const parent = claims[0] ? trackingDigits(claims[0].activity.providerId) : "";
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<rosters id_parent_provider="${xmlText(parent)}">`,
    ];
    for (const [key, attendees] of rosters) {
      const [provider, course] = key.split("\u0000") as [string, string];
      lines.push(
        "  <roster>",
        `    ${xmlElement("id_provider", provider)}`,
        `    ${xmlElement("id_course", course)}`,
        "    <attendees>",
      );
      for (const values of attendees) {
        lines.push("      <attendee>");
        CE_BROKER_ATTENDEE_ELEMENTS.forEach((name, i) => {
          lines.push(`        ${xmlElement(name, values[i] ?? "")}`);
        });
        lines.push("      </attendee>");
      }
      lines.push("    </attendees>", "  </roster>");
    }
    lines.push("</rosters>");
    return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
  },
};
