import { isCalendarDate } from "../../../contract";

/** The xAPI and cmi5 identifiers the LMS reads and writes. */
export const VERBS = {
  launched: "http://adlnet.gov/expapi/verbs/launched",
  initialized: "http://adlnet.gov/expapi/verbs/initialized",
  completed: "http://adlnet.gov/expapi/verbs/completed",
  passed: "http://adlnet.gov/expapi/verbs/passed",
  failed: "http://adlnet.gov/expapi/verbs/failed",
  terminated: "http://adlnet.gov/expapi/verbs/terminated",
  abandoned: "https://w3id.org/xapi/adl/verbs/abandoned",
  waived: "https://w3id.org/xapi/adl/verbs/waived",
  satisfied: "https://w3id.org/xapi/adl/verbs/satisfied",
  voided: "http://adlnet.gov/expapi/verbs/voided",
} as const;

export const CATEGORY = {
  cmi5: "https://w3id.org/xapi/cmi5/context/categories/cmi5",
  moveOn: "https://w3id.org/xapi/cmi5/context/categories/moveon",
} as const;

export const EXTENSION = {
  sessionId: "https://w3id.org/xapi/cmi5/context/extensions/sessionid",
  masteryScore: "https://w3id.org/xapi/cmi5/context/extensions/masteryscore",
  launchMode: "https://w3id.org/xapi/cmi5/context/extensions/launchmode",
  launchUrl: "https://w3id.org/xapi/cmi5/context/extensions/launchurl",
  moveOn: "https://w3id.org/xapi/cmi5/context/extensions/moveon",
  launchParameters: "https://w3id.org/xapi/cmi5/context/extensions/launchparameters",
  reason: "https://w3id.org/xapi/cmi5/result/extensions/reason",
} as const;

export const ACTIVITY_TYPE = {
  block: "https://w3id.org/xapi/cmi5/activitytype/block",
  course: "https://w3id.org/xapi/cmi5/activitytype/course",
} as const;

export const XAPI_VERSION = "1.0.3";
/** The version a statement sent without one is kept with: xAPI 1.0.x's one data model. */
export const STATEMENT_DATA_VERSION = "1.0.0";
export const LAUNCH_DATA = "LMS.LaunchData";
export const LEARNER_PREFERENCES = "cmi5LearnerPreferences";

/** An xAPI Agent as the LMS names a learner: an account on the portal. */
export interface AccountAgent {
  objectType: "Agent";
  account: { homePage: string; name: string };
}

export const agentOf = (homePage: string, userId: string): AccountAgent => ({
  objectType: "Agent",
  account: { homePage, name: userId },
});

/** Whether a value is the learner's agent: an Agent with the same account. */
export function isAgent(value: unknown, agent: AccountAgent): boolean {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  if (v.objectType !== undefined && v.objectType !== "Agent") return false;
  const account = v.account as Record<string, unknown> | undefined;
  if (!account || typeof account !== "object") return false;
  if (v.mbox !== undefined || v.mbox_sha1sum !== undefined || v.openid !== undefined) return false;
  return account.homePage === agent.account.homePage && account.name === agent.account.name;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === "string" && UUID.test(value);

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * The moment an ISO 8601 timestamp with its zone names, or null. Date.parse alone rolls
 * 2026-02-30 over to 2 March and takes years PostgreSQL cannot compare, so a statement
 * would keep a day that never was, and a query on it would fail.
 */
export function parseTimestamp(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const m = TIMESTAMP.exec(value);
  if (!m || !isCalendarDate(m[1]!)) return null;
  const [hour, minute, second] = [Number(m[2]), Number(m[3]), Number(m[4])];
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/** Whether a value is an ISO 8601 timestamp at all (xAPI), and whether in UTC (cmi5 9.7). */
export function timestampKind(value: unknown): "none" | "invalid" | "utc" | "offset" {
  if (value === undefined) return "none";
  if (typeof value !== "string" || !parseTimestamp(value)) return "invalid";
  return /(Z|[+-]00:?00)$/.test(value) && !value.endsWith("-00:00") ? "utc" : "offset";
}

const DURATION =
  /^P(?!$)(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?=\d)(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * An ISO 8601 duration in seconds (years of 365 days, months of 30), or null if invalid or
 * too long for any clock (digits past a number's range would report endless time).
 */
export function durationSeconds(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = DURATION.exec(value);
  if (!m) return null;
  const [y, mo, w, d, h, mi, s] = m.slice(1).map((x) => (x ? Number(x) : 0)) as number[];
  const seconds =
    y! * 365 * 86_400 +
    mo! * 30 * 86_400 +
    w! * 7 * 86_400 +
    d! * 86_400 +
    h! * 3600 +
    mi! * 60 +
    s!;
  return Number.isFinite(seconds) ? seconds : null;
}

/** Seconds as an ISO 8601 duration, to the hundredth (xAPI keeps 0.01 s). */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds * 100) / 100);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total - h * 3600) / 60);
  const s = Math.round((total - h * 3600 - m * 60) * 100) / 100;
  return `PT${h ? `${h}H` : ""}${m ? `${m}M` : ""}${s}S`;
}
