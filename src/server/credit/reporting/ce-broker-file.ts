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
  type ReportRow,
  trackingDigits,
  usDate,
  xmlCharacters,
  xmlElement,
} from "./report-format";

/**
 * The elements of one attendee of a CE Broker roster, in order, as a public provider
 * integration serializes the roster (MyCME's ACSCMECEPersonBuildXML.cs): the licence as the
 * full number the state's verification database shows (CE Broker's "Role 1 to Role 2"
 * roster update), then, for less than the course's hours, `partial_credits`.
 * docs/reporting.md cites each source.
 */
const CE_BROKER_ATTENDEE_ELEMENTS = [
  "licensee_profession",
  "license",
  "cebroker_state",
  "first_name",
  "last_name",
  "date_completed",
] as const;
const CE_BROKER_PARTIAL_CREDIT_ELEMENTS = [
  "cd_profession",
  "cd_subject_area",
  "partial_credit_hours",
] as const;

/** Where the parent provider and the upload key go when the file is downloaded. */
const CE_BROKER_PARENT_PLACEHOLDER = "{{id_parent_provider}}";
const CE_BROKER_UPLOAD_KEY_PLACEHOLDER = "{{upload_key}}";

/** A value as an XML attribute: escaped, its tabs and line breaks kept as references. */
const escapeAttribute = (value: string) =>
  xmlCharacters(value)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;")
    .replaceAll("\t", "&#9;")
    .replaceAll("\n", "&#10;")
    .replaceAll("\r", "&#13;");

/**
 * The roster with the provider's parent provider ID and upload key in `<rosters>`, as CE
 * Broker takes it. The stored file holds neither (the key is a credential, sealed in the
 * reporting settings); each download writes them in as the settings stand.
 */
export function ceBrokerRosterFor(stored: Buffer, parent: string, uploadKey: string): Buffer {
  return Buffer.from(
    stored
      .toString("utf8")
      // A function, so that `$&` or `$'` in a key is written as typed, not as a pattern.
      .replace(CE_BROKER_PARENT_PLACEHOLDER, () => escapeAttribute(parent))
      .replace(CE_BROKER_UPLOAD_KEY_PLACEHOLDER, () => escapeAttribute(uploadKey)),
    "utf8",
  );
}

/**
 * CE Broker's roster upload: `<rosters id_parent_provider upload_key>`, one `<roster>` per
 * provider and course with `id_provider` (the provider tracking number without 50-) and
 * `provider_course_code` (the provider's own code of the course, as registered with CE
 * Broker), its attendees, dates MM/DD/YYYY, UTF-8. An attendee who claimed less than the
 * course's hours gets the hours as partial credit in the credit type's subject area.
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
    if (!claim.activity.details.providerCode) {
      return "The credit type has no provider course code (the course's code as registered with CE Broker).";
    }
    if (!claim.ids) {
      return `The learner claimed this credit before it reported to ${REGULATOR_NAMES.ce_broker}: no identifiers were given with the claim.`;
    }
    const missing = missingRegulatorIds("ce_broker", claim.ids);
    if (missing.length) return `Missing from the claim: ${missing.join(", ")}.`;
    // Partial credit is recorded in a subject area: without one, CE Broker would award it all.
    if (claim.amount !== claim.maxAmount && !claim.activity.details.subjectArea) {
      return `CE Broker records less than the course's ${decimal(claim.maxAmount)} hours only with a subject area: set the credit type's subject area code, or report ${decimal(claim.amount)} hours in CE Broker by hand.`;
    }
    return null;
  },

  fileKey: (claim: ReportableClaim) => claim.activity.providerId,

  values(claim: ReportableClaim) {
    const ids = claim.ids!;
    const partial = claim.amount !== claim.maxAmount;
    return [
      trackingDigits(claim.activity.providerId),
      claim.activity.details.providerCode,
      ids.profession,
      ids.licenceNumber,
      ids.licenceState,
      ids.firstName,
      ids.lastName,
      usDate(claim.completedAt),
      partial ? claim.activity.details.subjectArea : "",
      partial ? decimal(claim.amount) : "",
    ];
  },

  async write(rows: ReportRow[]) {
    const rosters = new Map<string, string[][]>();
    for (const { values } of rows) {
      const [provider, course] = values as [string, string];
      const key = `${provider}\u0000${course}`;
      rosters.set(key, [...(rosters.get(key) ?? []), values.slice(2)]);
    }
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<rosters id_parent_provider="${CE_BROKER_PARENT_PLACEHOLDER}" upload_key="${CE_BROKER_UPLOAD_KEY_PLACEHOLDER}">`,
    ];
    for (const [key, attendees] of rosters) {
      const [provider, course] = key.split("\u0000") as [string, string];
      lines.push(
        "  <roster>",
        `    ${xmlElement("id_provider", provider)}`,
        `    ${xmlElement("provider_course_code", course)}`,
        "    <attendees>",
      );
      for (const values of attendees) {
        lines.push("      <attendee>");
        CE_BROKER_ATTENDEE_ELEMENTS.forEach((name, i) => {
          lines.push(`        ${xmlElement(name, values[i] ?? "")}`);
        });
        const [profession, , , , , , subjectArea, hours] = values;
        if (subjectArea) {
          const partial = [profession ?? "", subjectArea, hours ?? ""];
          lines.push("        <partial_credits>", "          <partial_credit>");
          CE_BROKER_PARTIAL_CREDIT_ELEMENTS.forEach((name, i) => {
            lines.push(`            ${xmlElement(name, partial[i]!)}`);
          });
          lines.push("          </partial_credit>", "        </partial_credits>");
        }
        lines.push("      </attendee>");
      }
      lines.push("    </attendees>", "  </roster>");
    }
    lines.push("</rosters>");
    return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
  },
};
