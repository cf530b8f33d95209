import { invalidXapi, statementRefused } from "./cmi5.errors";
import type { Cmi5SessionRow } from "./cmi5.table";
import {
  type AccountAgent,
  CATEGORY,
  durationSeconds,
  EXTENSION,
  isAgent,
  isUuid,
  timestampKind,
  VERBS,
} from "./xapi-values";

/** The verbs cmi5 defines for the AU to send; the LMS's own (satisfied, …) it never may. */
const AU_VERBS = new Map<string, AuVerb>([
  [VERBS.initialized, "initialized"],
  [VERBS.completed, "completed"],
  [VERBS.passed, "passed"],
  [VERBS.failed, "failed"],
  [VERBS.terminated, "terminated"],
]);
const LMS_VERBS = new Set<string>([
  VERBS.launched,
  VERBS.abandoned,
  VERBS.waived,
  VERBS.satisfied,
  VERBS.voided,
]);

type AuVerb = "initialized" | "completed" | "passed" | "failed" | "terminated";

/** What an accepted statement reports, for the session and the attempt. */
export interface StatementFacts {
  kind: AuVerb | "allowed";
  /** The score it gave, scaled (passed and failed). */
  scoreScaled: number | null;
  /** Its duration in seconds, when it gave one. */
  seconds: number | null;
}

/** What the rules are checked against: the session that sends, and the registration so far. */
export interface RuleContext {
  session: Pick<
    Cmi5SessionRow,
    | "id"
    | "registration"
    | "state"
    | "activityId"
    | "launchMode"
    | "launchDataRead"
    | "preferencesRead"
    | "completed"
    | "passed"
    | "failed"
  >;
  agent: AccountAgent;
  masteryScore: number | null;
  /** Whether the AU was completed or passed in an earlier session of the registration. */
  registration: { completed: boolean; passed: boolean };
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);

function categories(context: Json): string[] {
  const activities = context.contextActivities;
  if (!isObject(activities)) return [];
  const category = activities.category;
  const list = Array.isArray(category) ? category : isObject(category) ? [category] : [];
  return list.flatMap((c) => (isObject(c) && typeof c.id === "string" ? [c.id] : []));
}

/** The xAPI shape first: what is not a statement at all is a bad request (400). */
function checkShape(st: Json) {
  if (st.id !== undefined && !isUuid(st.id)) throw invalidXapi("the statement's id is not a UUID.");
  if (!isObject(st.actor)) throw invalidXapi("the statement has no actor.");
  if (!isObject(st.verb) || typeof st.verb.id !== "string" || !st.verb.id) {
    throw invalidXapi("the statement has no verb id.");
  }
  if (!isObject(st.object)) throw invalidXapi("the statement has no object.");
  if (timestampKind(st.timestamp) === "invalid")
    throw invalidXapi("the timestamp is not ISO 8601.");
  if (st.context !== undefined && !isObject(st.context)) {
    throw invalidXapi("the context is not an object.");
  }
  if (st.result !== undefined && !isObject(st.result)) {
    throw invalidXapi("the result is not an object.");
  }
  const result = (st.result ?? {}) as Json;
  if (result.duration !== undefined && durationSeconds(result.duration) === null) {
    throw invalidXapi("the result's duration is not an ISO 8601 duration.");
  }
  if (result.score !== undefined && !isObject(result.score)) {
    throw invalidXapi("the result's score is not an object.");
  }
  const score = (result.score ?? {}) as Json;
  for (const key of ["scaled", "raw", "min", "max"]) {
    if (score[key] !== undefined && typeof score[key] !== "number") {
      throw invalidXapi(`the score's ${key} is not a number.`);
    }
  }
  const scaled = score.scaled as number | undefined;
  if (scaled !== undefined && (scaled < -1 || scaled > 1)) {
    throw invalidXapi("the scaled score is outside -1 to 1.");
  }
}

/**
 * Checks a statement an AU sends against the cmi5 specification's rules for AU statements
 * (sections 9 and 10): who sends it, in which session, with which context, verb order and
 * result. A statement that is not xAPI is refused with 400, one that breaks a cmi5 rule
 * with 403 (as the cmi5 LMS test suite expects); nothing is stored either way.
 */
export function checkAuStatement(statement: unknown, ctx: RuleContext): StatementFacts {
  if (!isObject(statement)) throw invalidXapi("a statement must be a JSON object.");
  checkShape(statement);
  const st = statement;
  const { session } = ctx;
  // 9.1: the AU names each statement.
  if (st.id === undefined) throw statementRefused("an AU's statement must carry its own id.");
  // 9.2: the actor is the learner the LMS launched, as an Agent with the same account.
  if (!isAgent(st.actor, ctx.agent)) {
    throw statementRefused("the actor must be the launched learner's Agent (its account).");
  }
  // 9.7: a timestamp, in UTC.
  const time = timestampKind(st.timestamp);
  if (time === "none") throw statementRefused("a statement must carry a timestamp.");
  if (time !== "utc") throw statementRefused("the timestamp must be in UTC.");
  const verbId = (st.verb as Json).id as string;
  if (LMS_VERBS.has(verbId)) {
    throw statementRefused("only the LMS sends launched, satisfied, waived, abandoned or voided.");
  }
  // 9.6: the context the LMS gave, with the registration and the session.
  if (!isObject(st.context)) throw statementRefused("a statement must carry its context.");
  const context = st.context;
  if (context.registration !== session.registration) {
    throw statementRefused("the context's registration must be the launch's registration.");
  }
  const extensions = isObject(context.extensions) ? context.extensions : {};
  if (extensions[EXTENSION.sessionId] !== session.id) {
    throw statementRefused("the context must carry this session's id extension.");
  }
  const kind = AU_VERBS.get(verbId) ?? "allowed";
  const cats = categories(context);
  const moveOnCategory = cats.includes(CATEGORY.moveOn);

  // 9.3: initialized first, once; nothing after terminated. The token ends with the request
  // that terminates, so this is what refuses the rest of a batch sent with it.
  if (session.state === "terminated" || session.state === "abandoned") {
    throw statementRefused("nothing comes after the session's terminated statement.");
  }
  if (session.state === "launched" && kind !== "initialized") {
    throw statementRefused("the first statement of a session must be initialized.");
  }
  if (kind === "initialized") {
    if (session.state !== "launched") throw statementRefused("a session initializes once.");
    // 10 and 11: the AU reads LMS.LaunchData and the learner preferences before initializing.
    if (!session.launchDataRead || !session.preferencesRead) {
      throw statementRefused(
        "read LMS.LaunchData and cmi5LearnerPreferences before sending initialized.",
      );
    }
  }

  if (kind !== "allowed") {
    // 9.4 and 9.6.2.1: a cmi5 statement is about the AU, in the cmi5 category.
    if (!isObject(st.object) || st.object.id !== session.activityId) {
      throw statementRefused("a cmi5 statement's object must be the AU's activity id.");
    }
    if (!cats.includes(CATEGORY.cmi5)) {
      throw statementRefused("a cmi5 statement must carry the cmi5 category.");
    }
  }
  // 9.6.2.2: the moveOn category marks completed, passed and failed, and nothing else.
  const judges = kind === "completed" || kind === "passed" || kind === "failed";
  if (judges && !moveOnCategory) {
    throw statementRefused(`${kind} must carry the moveOn category.`);
  }
  if (!judges && moveOnCategory) {
    throw statementRefused("only completed, passed and failed carry the moveOn category.");
  }

  const result = (st.result ?? {}) as Json;
  const score = (result.score ?? undefined) as Json | undefined;
  const seconds =
    result.duration === undefined ? null : (durationSeconds(result.duration) as number);
  // 9.5.1: a raw score comes with its range.
  if (score && score.raw !== undefined && (score.min === undefined || score.max === undefined)) {
    throw statementRefused("a raw score needs its min and max.");
  }
  if (
    score &&
    typeof score.raw === "number" &&
    typeof score.min === "number" &&
    typeof score.max === "number" &&
    (score.raw < score.min || score.raw > score.max || score.min > score.max)
  ) {
    throw invalidXapi("the raw score is outside its min and max.");
  }
  const scaled = typeof score?.scaled === "number" ? score.scaled : null;

  if (judges) {
    // 10.2.2: only a Normal launch counts.
    if (session.launchMode !== "Normal") {
      throw statementRefused(`a ${session.launchMode} launch does not send ${kind}.`);
    }
    // 9.5.4.1: each of them says how long it took.
    if (seconds === null) throw statementRefused(`${kind} must carry a duration.`);
  }
  if (kind === "terminated" && seconds === null) {
    throw statementRefused("terminated must carry a duration.");
  }

  if (kind === "completed") {
    if (result.completion !== true) throw statementRefused("completed needs completion true.");
    if (result.success !== undefined) throw statementRefused("completed carries no success.");
    if (score !== undefined) throw statementRefused("completed carries no score.");
    if (session.completed || ctx.registration.completed) {
      throw statementRefused("the AU was already completed in this registration.");
    }
  }
  if (kind === "passed" || kind === "failed") {
    const success = kind === "passed";
    if (result.success !== success) {
      throw statementRefused(`${kind} needs success ${success}.`);
    }
    if (result.completion !== undefined) throw statementRefused(`${kind} carries no completion.`);
    if (session.passed || ctx.registration.passed) {
      throw statementRefused("the AU was already passed in this registration.");
    }
    if (session.failed) {
      throw statementRefused("the AU was already judged (failed) in this session.");
    }
    if (ctx.masteryScore !== null) {
      // 9.6.3.2: a judgement made by the score names the masteryScore it was made against.
      const named = extensions[EXTENSION.masteryScore];
      if ((scaled !== null || named !== undefined) && named !== ctx.masteryScore) {
        throw statementRefused(
          `${kind} by a score must carry the launch's masteryScore extension.`,
        );
      }
      if (scaled !== null && success && scaled < ctx.masteryScore) {
        throw statementRefused("passed with a scaled score below the masteryScore.");
      }
      if (scaled !== null && !success && scaled >= ctx.masteryScore) {
        throw statementRefused("failed with a scaled score at or above the masteryScore.");
      }
    }
  }
  return { kind, scoreScaled: kind === "passed" || kind === "failed" ? scaled : null, seconds };
}
