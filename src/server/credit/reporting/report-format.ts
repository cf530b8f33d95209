import { createHash } from "node:crypto";
import {
  type ActivityDetails,
  formulaSafe,
  type Regulator,
  type RegulatorActivityIds,
  type RegulatorIds,
} from "../../../contract";

/** One completed claim of a credit type reporting to a regulator, as its file reports it. */
export interface ReportableClaim {
  /** `<attestation id>:<position>`: the claim's key. */
  key: string;
  attestationId: string;
  position: number;
  learnerName: string;
  courseId: string | null;
  courseTitle: string;
  creditTypeId: string;
  creditName: string;
  amount: number;
  /** The type's whole amount when claimed. */
  maxAmount: number;
  completedAt: Date;
  /** The identifiers the learner gave, as copied into the claim; null when none were asked. */
  ids: RegulatorIds | null;
  /** The course's identifiers of the activity for this regulator, as they stand. */
  activity: RegulatorActivityIds & { details: ActivityDetails };
}

/**
 * One row of a file: a claim's values added, or (PARS) a row reported earlier withdrawn with
 * the values it was written with.
 */
export interface ReportRow {
  action: "add" | "delete";
  values: string[];
}

/** A regulator's upload format: what it refuses, the values of a row, and the whole file. */
export interface ReportFormat {
  regulator: Regulator;
  extension: "xlsx" | "txt" | "xml";
  contentType: string;
  /** How its files' names start: the regulator and what the file holds. */
  fileNamePrefix: string;
  /** Why the format's rules refuse this claim; null when it can be written. */
  refusal(claim: ReportableClaim): string | null;
  /** The values the claim's row is written with, in the format's order. */
  values(claim: ReportableClaim): string[];
  /**
   * What every row of one file must share (the provider the file is sent for); a claim with
   * another is refused from that file.
   */
  fileKey?(claim: ReportableClaim): string;
  /**
   * The file of these rows (each accepted by `refusal`); absent when the regulator takes
   * completions by its web service, not by file.
   */
  write?(rows: ReportRow[]): Promise<Buffer>;
  /** Whether the layout withdraws rows it reported (PARS's Delete record action). */
  withdraws?: boolean;
}

/**
 * The fingerprint of a claim's row as written: it changes when anything written changes. A
 * row already written (a withdrawal) is fingerprinted from its values.
 */
export const rowFingerprint = (
  format: ReportFormat,
  claim: ReportableClaim | null,
  values = format.values(claim!),
) =>
  createHash("sha256")
    .update(JSON.stringify([format.regulator, ...values]))
    .digest("base64url");

const pad = (n: number) => String(n).padStart(2, "0");
/** A UTC day as MM/DD/YYYY, as PARS and CE Broker write dates. */
export const usDate = (at: Date) =>
  `${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())}/${at.getUTCFullYear()}`;
/** A UTC day as YYYY-MM-DD. */
export const isoDate = (at: Date) => at.toISOString().slice(0, 10);
/** An amount as a plain decimal with a point and at most 2 decimals: 1, 1.5, 0.25. */
export const decimal = (amount: number) => String(Math.round(amount * 100) / 100);

/**
 * Whether every character of a text has a printable byte in ISO-8859-1 (Latin-1); tabs and
 * line breaks count, as a tab-delimited row writes them as spaces.
 */
export const isLatin1 = (text: string) => /^[\t\r\n\u0020-\u007e\u00a0-\u00ff]*$/.test(text);

/**
 * A text without the characters XML 1.0 forbids (controls other than tab and line breaks,
 * noncharacters): one such character would make a regulator refuse the whole file.
 */
export const xmlCharacters = (value: string) =>
  value.replace(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, "");

/** Text as XML character data: escaped, and inert when a spreadsheet opens the file. */
const xmlText = (value: string) =>
  formulaSafe(xmlCharacters(value))
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");

/** `<name>value</name>`, the value escaped. */
export const xmlElement = (name: string, value: string) => `<${name}>${xmlText(value)}</${name}>`;

/** The digits after the prefix of a tracking number: "50-1234" → "1234". */
export const trackingDigits = (id: string) => id.slice(id.indexOf("-") + 1);
