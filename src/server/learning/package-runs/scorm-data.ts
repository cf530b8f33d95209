import { z } from "zod";
import {
  SCORM_DATA_MAX_CHARS,
  SCORM12_SUSPEND_DATA_MAX,
  SCORM2004_SUSPEND_DATA_MAX,
} from "../../../contract";
import type { PackageCompletion, PackageSuccess } from "./package-runs.table";

/**
 * The SCORM data model as a SCO commits it through scorm-again (`{cmi: {...}}`), checked
 * where the portal reads it and within SCORM's own limits; the rest of the data model
 * (interactions, objectives, preferences) is kept as committed, within a total size.
 */

/** A SCORM number as scorm-again renders it: a decimal string, empty when unset. */
const decimal = z.union([
  z.literal(""),
  z.string().regex(/^-?\d{1,12}(\.\d{1,12})?$/),
  z.number().finite(),
]);
const short = z.string().max(64);

const scorm12Cmi = z.looseObject({
  core: z
    .looseObject({
      lesson_location: z.string().max(255).optional(),
      lesson_status: z
        .enum(["passed", "completed", "failed", "incomplete", "browsed", "not attempted", ""])
        .optional(),
      score: z
        .looseObject({ raw: decimal.optional(), min: decimal.optional(), max: decimal.optional() })
        .optional(),
      session_time: short.optional(),
      total_time: short.optional(),
      exit: short.optional(),
    })
    .optional(),
  suspend_data: z.string().max(SCORM12_SUSPEND_DATA_MAX).optional(),
});

const scorm2004Cmi = z.looseObject({
  location: z.string().max(1000).optional(),
  suspend_data: z.string().max(SCORM2004_SUSPEND_DATA_MAX).optional(),
  completion_status: z.enum(["completed", "incomplete", "not attempted", "unknown", ""]).optional(),
  success_status: z.enum(["passed", "failed", "unknown", ""]).optional(),
  score: z
    .looseObject({
      scaled: decimal.optional(),
      raw: decimal.optional(),
      min: decimal.optional(),
      max: decimal.optional(),
    })
    .optional(),
  progress_measure: decimal.optional(),
  completion_threshold: decimal.optional(),
  scaled_passing_score: decimal.optional(),
  session_time: short.optional(),
  total_time: short.optional(),
  exit: short.optional(),
});

type Scorm12Cmi = z.infer<typeof scorm12Cmi>;
type Scorm2004Cmi = z.infer<typeof scorm2004Cmi>;
export type ScormStandard = "scorm12" | "scorm2004";

/** The data model checked, or the first fault found in it (for the learner's refusal). */
export function parseScormData(
  standard: ScormStandard,
  cmi: Record<string, unknown>,
): { ok: true; cmi: Record<string, unknown> } | { ok: false; fault: string } {
  if (JSON.stringify(cmi).length > SCORM_DATA_MAX_CHARS) {
    return { ok: false, fault: `the data model is larger than ${SCORM_DATA_MAX_CHARS} characters` };
  }
  const parsed = (standard === "scorm12" ? scorm12Cmi : scorm2004Cmi).safeParse(cmi);
  if (parsed.success) return { ok: true, cmi: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, fault: `cmi.${issue.path.join(".")}: ${issue.message}` };
}

/** What one item's data model says of it. */
export interface ItemReport {
  completion: PackageCompletion;
  success: PackageSuccess;
  scoreScaled: number | null;
  reportedSeconds: number;
}

/** What the package's manifest says of the item that decides its status. */
export interface ItemRules {
  /** SCORM 1.2 `masteryscore`, 0..100. */
  masteryScore: number | null;
  /** SCORM 2004 `completionThreshold`, 0..1. */
  completionThreshold: number | null;
  /** SCORM 2004 primary objective's `minNormalizedMeasure` when satisfied by measure. */
  scaledPassingScore: number | null;
}

const num = (value: unknown): number | null => {
  if (value === "" || value === undefined || value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
const clampScaled = (n: number | null) => (n === null ? null : Math.max(-1, Math.min(1, n)));

/**
 * The most time a SCO's report counts: SCORM 1.2's largest timespan (9999 hours). A SCORM
 * 2004 interval may name any number of years; past this it is content's error, not time spent.
 */
const MOST_REPORTED_SECONDS = 9999 * 3600;

/** SCORM 1.2 CMITimespan, `HHHH:MM:SS.SS`, in seconds (0 when not one). */
export function scorm12Seconds(time: unknown): number {
  const m =
    typeof time === "string" ? /^(\d{1,4}):(\d{2}):(\d{2}(?:\.\d{1,2})?)$/.exec(time) : null;
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : 0;
}

/** SCORM 2004 timeinterval, an ISO 8601 duration (`P1DT2H3M4.5S`), in seconds. */
export function scorm2004Seconds(time: unknown): number {
  const m =
    typeof time === "string"
      ? /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(
          time,
        )
      : null;
  if (!m) return 0;
  const [, y, mo, d, h, mi, s] = m.map((v) => Number(v ?? 0));
  const seconds = ((((y! * 12 + mo!) * 30.4375 + d!) * 24 + h!) * 60 + mi!) * 60 + s!;
  return Math.min(seconds, MOST_REPORTED_SECONDS);
}

/** Seconds as SCORM 1.2 CMITimespan. */
export function scorm12Time(seconds: number): string {
  const whole = Math.floor(seconds);
  const h = Math.min(9999, Math.floor(whole / 3600));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(h)}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

/** Seconds as a SCORM 2004 timeinterval. */
export function scorm2004Time(seconds: number): string {
  const whole = Math.floor(seconds);
  return `PT${Math.floor(whole / 3600)}H${Math.floor((whole % 3600) / 60)}M${whole % 60}S`;
}

/**
 * A SCORM 1.2 SCO's state. `lesson_status` says both completion and success; a SCO that
 * finishes without setting it is completed (SCORM 1.2 RTE, `cmi.core.lesson_status`); with
 * a mastery score in the manifest, a raw score decides passed or failed (the LMS's rule).
 */
export function readScorm12(cmi: Scorm12Cmi, finish: boolean, rules: ItemRules): ItemReport {
  const core = cmi.core ?? {};
  let status = core.lesson_status ?? "";
  if (finish && (status === "" || status === "not attempted")) status = "completed";
  const raw = num(core.score?.raw);
  const min = num(core.score?.min) ?? 0;
  const max = num(core.score?.max);
  const scoreScaled =
    raw === null
      ? null
      : clampScaled(max !== null && max > min ? (raw - min) / (max - min) : raw / 100);
  let success: PackageSuccess =
    status === "passed" ? "passed" : status === "failed" ? "failed" : "unknown";
  if (rules.masteryScore !== null && raw !== null && status !== "" && status !== "not attempted") {
    success = raw >= rules.masteryScore ? "passed" : "failed";
  }
  const completion: PackageCompletion =
    status === "completed" || status === "passed" || status === "failed"
      ? "completed"
      : status === "incomplete" || status === "browsed"
        ? "incomplete"
        : "unknown";
  return {
    completion,
    success,
    scoreScaled,
    reportedSeconds: Math.max(scorm12Seconds(core.total_time), scorm12Seconds(core.session_time)),
  };
}

/**
 * A SCORM 2004 SCO's state. With a completion threshold and a progress measure, the
 * measure decides completion; with a scaled passing score and a scaled score, the score
 * decides success (SCORM 2004 RTE 4.2.4.1 and 4.2.21.1: the LMS's evaluation overrides the
 * SCO's own status).
 */
export function readScorm2004(cmi: Scorm2004Cmi, rules: ItemRules): ItemReport {
  const threshold = rules.completionThreshold ?? num(cmi.completion_threshold);
  const progress = num(cmi.progress_measure);
  let completion: PackageCompletion =
    cmi.completion_status === "completed"
      ? "completed"
      : cmi.completion_status === "incomplete"
        ? "incomplete"
        : "unknown";
  if (threshold !== null && progress !== null) {
    completion = progress >= threshold ? "completed" : "incomplete";
  }
  const scaled = clampScaled(num(cmi.score?.scaled));
  const passing = rules.scaledPassingScore ?? num(cmi.scaled_passing_score);
  let success: PackageSuccess =
    cmi.success_status === "passed"
      ? "passed"
      : cmi.success_status === "failed"
        ? "failed"
        : "unknown";
  if (passing !== null && scaled !== null) success = scaled >= passing ? "passed" : "failed";
  return {
    completion,
    success,
    scoreScaled: scaled,
    reportedSeconds: Math.max(scorm2004Seconds(cmi.total_time), scorm2004Seconds(cmi.session_time)),
  };
}

/** What the data model says of an item, whichever the version. */
export function readScormItem(
  standard: ScormStandard,
  cmi: Record<string, unknown>,
  finish: boolean,
  rules: ItemRules,
): ItemReport {
  return standard === "scorm12"
    ? readScorm12(cmi as Scorm12Cmi, finish, rules)
    : readScorm2004(cmi as Scorm2004Cmi, rules);
}

/** Keeps only the values that are set: scorm-again refuses some empty ones on load. */
function compact(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null || v === "") continue;
    if (typeof v === "object") {
      const inner = compact(v as Record<string, unknown>);
      if (Object.keys(inner).length) out[key] = inner;
    } else out[key] = v;
  }
  return out;
}

/**
 * The data model a SCO starts with: who the learner is, what the manifest gives it, and,
 * when it committed before, where it was (location, suspend data, status, score) with
 * `entry` "resume" and the time it has spent so far.
 */
export function scormStartData(input: {
  standard: ScormStandard;
  stored: Record<string, unknown> | undefined;
  learner: { id: string; name: string };
  launchData: string | null;
  rules: ItemRules;
  reportedSeconds: number;
}): Record<string, unknown> {
  const { stored, learner, rules } = input;
  const resuming = stored !== undefined && Object.keys(stored).length > 0;
  if (input.standard === "scorm12") {
    const before = (stored ?? {}) as Scorm12Cmi;
    const status = before.core?.lesson_status;
    return compact({
      core: {
        student_id: learner.id,
        student_name: learner.name,
        lesson_location: before.core?.lesson_location,
        lesson_status: status === "not attempted" ? undefined : status,
        entry: resuming ? "resume" : "ab-initio",
        credit: "credit",
        lesson_mode: "normal",
        total_time: scorm12Time(input.reportedSeconds),
        score: before.core?.score,
      },
      suspend_data: before.suspend_data,
      launch_data: input.launchData,
      student_data: {
        mastery_score: rules.masteryScore === null ? undefined : String(rules.masteryScore),
      },
    });
  }
  const before = (stored ?? {}) as Scorm2004Cmi;
  return compact({
    learner_id: learner.id,
    learner_name: learner.name,
    location: before.location,
    suspend_data: before.suspend_data,
    completion_status:
      before.completion_status === "not attempted" ? undefined : before.completion_status,
    success_status: before.success_status,
    score: before.score,
    progress_measure: before.progress_measure,
    entry: resuming ? "resume" : "ab-initio",
    credit: "credit",
    mode: "normal",
    total_time: scorm2004Time(input.reportedSeconds),
    launch_data: input.launchData,
    completion_threshold:
      rules.completionThreshold === null ? undefined : String(rules.completionThreshold),
    scaled_passing_score:
      rules.scaledPassingScore === null ? undefined : String(rules.scaledPassingScore),
  });
}
