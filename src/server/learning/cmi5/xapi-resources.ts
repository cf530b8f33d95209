import { createHash } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { Executor } from "../../db/client";
import { MOST_JSON_DEPTH, nestedDeeperThan } from "../../plugins/input-guard";
import type { PackageAttempt as PackageAttemptRow } from "../package-runs/package-attempts.service";
import {
  invalidXapi,
  statementConflict,
  statementRefused,
  xapiForbidden,
  xapiNotFound,
  xapiPreconditionFailed,
  xapiStorageFull,
  xapiUnauthorized,
} from "./cmi5.errors";
import { createCmi5Repository } from "./cmi5.repository";
import type { Cmi5SessionRow } from "./cmi5.table";
import { type Cmi5Lms, type Cmi5Run, sha256, token } from "./cmi5-lms";
import { checkAuStatement } from "./statement-rules";
import {
  documentBytes,
  PROFILE_STORAGE_BYTES,
  PROFILES_FULL,
  REGISTRATION_FULL,
  REGISTRATION_STORAGE_BYTES,
  statementBytes,
} from "./xapi-storage";
import {
  type AccountAgent,
  agentOf,
  isAgent,
  isUuid,
  LAUNCH_DATA,
  LEARNER_PREFERENCES,
  parseTimestamp,
  STATEMENT_DATA_VERSION,
} from "./xapi-values";

/** The fetch URL works for this long after the launch; the auth token for a day after. */
const FETCH_LIFETIME_MS = 60 * 60 * 1000;
const AUTH_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** What an xAPI request is allowed by: an open session's auth token, and what it names. */
export interface XapiCaller {
  tx: Executor;
  session: Cmi5SessionRow;
  attempt: PackageAttemptRow;
  run: Cmi5Run;
  agent: AccountAgent;
}

/** A document of the state or agent profile API, as sent or stored. */
export interface XapiDocument {
  contentType: string;
  content: Buffer;
  updatedAt?: Date;
}

/** The If-Match and If-None-Match headers of a document's write or delete. */
export interface Preconditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

/** A document's entity tag, as GET answers it and a later write names it (If-Match). */
export const etagOf = (content: Buffer) => `"${createHash("sha1").update(content).digest("hex")}"`;

const tagsOf = (header: string) => header.split(",").map((t) => t.trim().replace(/^W\//, ""));

/**
 * xAPI's concurrency control: a write that names the document it read (If-Match) or that
 * expects none (If-None-Match) is refused (412) once the stored one says otherwise, so an
 * AU open twice never overwrites what the other wrote unknowingly.
 */
function checkPreconditions(current: XapiDocument | undefined, p: Preconditions = {}) {
  const tag = current ? etagOf(current.content) : undefined;
  if (p.ifMatch !== undefined) {
    const tags = tagsOf(p.ifMatch);
    if (!tag || !(tags.includes("*") || tags.includes(tag))) throw xapiPreconditionFailed();
  }
  if (p.ifNoneMatch !== undefined && tag) {
    const tags = tagsOf(p.ifNoneMatch);
    if (tags.includes("*") || tags.includes(tag)) throw xapiPreconditionFailed();
  }
}

/**
 * A query's `since` or `until`: an ISO 8601 timestamp with its zone, or absent. A time
 * without a zone would be read on the server's own clock, which the AU cannot know.
 */
function timestampParameter(name: string, value: string | undefined): Date | undefined {
  if (value === undefined || value === "") return undefined;
  const at = parseTimestamp(value);
  if (!at) throw invalidXapi(`${name} is not a timestamp with its time zone.`);
  return at;
}

/** A document read, or 404 once the read itself is recorded (outside its transaction). */
function found<T>(doc: T | null): T {
  if (doc === null) throw xapiNotFound();
  return doc;
}

const isJsonType = (contentType: string) => /^application\/json\s*(;|$)/i.test(contentType.trim());

/**
 * A document's JSON object; undefined when it is not one, or nests deeper than any request
 * may (MOST_JSON_DEPTH): merging it would overflow the stack copying it.
 */
function parseJsonObject(doc: XapiDocument): Record<string, unknown> | undefined {
  if (!isJsonType(doc.contentType)) return undefined;
  const text = doc.content.toString("utf8");
  if (nestedDeeperThan(text, MOST_JSON_DEPTH)) return undefined;
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A language tag list as cmi5 11 wants it: comma separated RFC 5646 tags, at least one. */
const LANGUAGE_LIST = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*(,[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)*$/;

function checkLearnerPreferences(doc: XapiDocument) {
  const prefs = parseJsonObject(doc);
  if (!prefs) throw statementRefused("cmi5LearnerPreferences is a JSON object.");
  if (
    typeof prefs.languagePreference !== "string" ||
    !LANGUAGE_LIST.test(prefs.languagePreference)
  ) {
    throw statementRefused("languagePreference is a comma separated list of language codes.");
  }
  if (prefs.audioPreference !== "on" && prefs.audioPreference !== "off") {
    throw statementRefused('audioPreference is "on" or "off".');
  }
}

/**
 * The LMS's resources on the content origin, as an AU reaches them with its session's token:
 * the one-time fetch URL, statements under the cmi5 rules, activity state and agent profile
 * documents, each for the session's learner and registration only.
 */
export function createXapiResources(lms: Cmi5Lms) {
  const { db, now, deps, runOf, settle, store, completeAfter, authority, statementResult } = lms;

  /** Runs `fn` as the session an `Authorization: Basic <token>` names, locked (401 if none). */
  async function asCaller<T>(
    authorization: string | undefined,
    fn: (caller: XapiCaller) => Promise<T>,
  ) {
    const match = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? "");
    if (!match) throw xapiUnauthorized();
    const hash = sha256(match[1]!);
    const usable = (session: Cmi5SessionRow | undefined): session is Cmi5SessionRow =>
      !!session &&
      // The portal sign-in that launched the AU has not ended (cmi5.table.ts).
      session.portalSession !== null &&
      (session.state === "launched" || session.state === "initialized") &&
      !!session.authExpiresAt &&
      session.authExpiresAt.getTime() > now().getTime();
    return db.transaction(async (tx) => {
      const repo = createCmi5Repository(tx);
      // The attempt first, then the session, in the order a launch and a waiver lock them:
      // the registration's reports are settled one at a time, and no two wait on each other.
      const found = await repo.findSessionByAuthToken(hash);
      if (!usable(found)) throw xapiUnauthorized();
      const attempt = await deps.attempts.lockByRegistration(tx, found.registration);
      const session = await repo.lockSessionByToken("auth", hash);
      if (!usable(session)) throw xapiUnauthorized();
      // An administrator's reset ended the attempt: its sessions end with it.
      if (!attempt || attempt.endedAt) throw xapiUnauthorized();
      const run = await runOf(attempt.packageId);
      if (!run) throw xapiUnauthorized();
      const result = await fn({
        tx,
        session,
        attempt,
        run,
        agent: agentOf(deps.portalOrigin, session.userId),
      });
      await repo.updateSession(session.id, { lastActivityAt: now() });
      return result;
    });
  }

  /** The caller's scope: the learner's own agent and registration only. */
  function checkScope(
    caller: XapiCaller,
    params: { agent?: string; registration?: string },
    needsRegistration: boolean,
  ) {
    if (params.agent === undefined) throw invalidXapi("the agent parameter is required.");
    let agent: unknown;
    try {
      agent = JSON.parse(params.agent);
    } catch {
      throw invalidXapi("the agent parameter is not JSON.");
    }
    if (!isAgent(agent, caller.agent)) throw xapiForbidden("another agent");
    if (needsRegistration && params.registration !== caller.session.registration) {
      throw xapiForbidden("another registration");
    }
  }

  function mergedDocument(
    existing: XapiDocument | undefined,
    incoming: XapiDocument,
  ): XapiDocument {
    const next = parseJsonObject(incoming);
    if (!next)
      throw invalidXapi(`POST merges JSON objects only, nested ${MOST_JSON_DEPTH} deep at most.`);
    if (!existing) return incoming;
    const before = parseJsonObject(existing);
    if (!before) throw invalidXapi("the stored document is not a JSON object to merge into.");
    return {
      contentType: "application/json",
      content: Buffer.from(JSON.stringify({ ...before, ...next })),
    };
  }

  return {
    /**
     * The fetch URL (cmi5 8.2): the first call answers the session's auth token; every
     * later one, or an unknown or expired URL, answers cmi5's error object.
     */
    async fetch(fetchToken: string): Promise<Record<string, string>> {
      return db.transaction(async (tx): Promise<Record<string, string>> => {
        const repo = createCmi5Repository(tx);
        const session = await repo.lockSessionByToken("fetch", sha256(fetchToken));
        // A launch whose portal sign-in has ended (cmi5.table.ts) is no longer the learner's.
        if (
          !session ||
          session.portalSession === null ||
          session.launchedAt.getTime() + FETCH_LIFETIME_MS <= now().getTime()
        ) {
          return { "error-code": "3", "error-text": "This fetch URL is not valid." };
        }
        if (session.fetchedAt || session.state === "abandoned" || session.state === "terminated") {
          return { "error-code": "1", "error-text": "This fetch URL was already used." };
        }
        // The token is Basic credentials as xAPI clients expect: "<session>:<secret>" in base64.
        const authToken = Buffer.from(`${session.id}:${token()}`).toString("base64");
        const at = now();
        await repo.updateSession(session.id, {
          fetchedAt: at,
          authTokenHash: sha256(authToken),
          authExpiresAt: new Date(at.getTime() + AUTH_LIFETIME_MS),
        });
        return { "auth-token": authToken };
      });
    },

    /**
     * Stores statements an AU sends (PUT one with its id, POST one or more), all or none,
     * each checked by the cmi5 rules in order; reports them on the attempt and settles
     * moveOn. Answers the ids stored.
     */
    async storeStatements(
      authorization: string | undefined,
      input: { statements: unknown[]; statementId?: string },
    ) {
      let satisfied: { userId: string; courseId: string; moduleId: string } | undefined;
      const ids = await asCaller(authorization, async (caller) => {
        const { tx, run, attempt } = caller;
        const repo = createCmi5Repository(tx);
        const au = run.aus[caller.session.auIndex]!;
        const session = { ...caller.session };
        const before = await repo.reported(session.registration, au.id);
        const stored: string[] = [];
        let storedBytes = 0;
        for (const raw of input.statements) {
          if (
            raw &&
            typeof raw === "object" &&
            !Array.isArray(raw) &&
            input.statementId !== undefined
          ) {
            const st = raw as Record<string, unknown>;
            if (st.id === undefined) st.id = input.statementId;
            else if (st.id !== input.statementId)
              throw invalidXapi("the statement's id is not the statementId.");
          }
          // An id that is no UUID names no stored statement: the rules refuse it below.
          const existing =
            raw && typeof raw === "object" && isUuid((raw as { id?: unknown }).id)
              ? await repo.findStatement((raw as { id: string }).id)
              : undefined;
          if (existing) {
            // What the LRS adds to a statement (stored, authority, a version) is no difference.
            const { stored: _s, authority: _a, version: keptVersion, ...kept } = existing.statement;
            const { version: sentVersion, ...sent } = raw as Record<string, unknown>;
            if (
              existing.registration === session.registration &&
              (sentVersion === undefined || sentVersion === keptVersion) &&
              isDeepStrictEqual(kept, sent)
            ) {
              stored.push(existing.id);
              continue;
            }
            throw statementConflict();
          }
          const facts = checkAuStatement(raw, {
            session,
            agent: caller.agent,
            masteryScore: au.masteryScore,
            registration: before,
          });
          const st = raw as Record<string, unknown> & { id: string };
          const at = now().toISOString();
          const kept = {
            ...st,
            stored: at,
            authority,
            version: (st.version as string) ?? STATEMENT_DATA_VERSION,
          };
          await store(tx, kept, session.registration, session.id);
          storedBytes += statementBytes(kept);
          stored.push(st.id);
          const states = await deps.attempts.itemStates(tx, attempt.id);
          const item = states.find((s) => s.itemId === au.id);
          switch (facts.kind) {
            case "initialized":
              session.state = "initialized";
              break;
            case "completed":
              session.completed = true;
              await deps.attempts.reportItem(tx, attempt.id, au.id, { completion: "completed" });
              break;
            case "passed":
              session.passed = true;
              await deps.attempts.reportItem(tx, attempt.id, au.id, {
                success: "passed",
                ...(facts.scoreScaled !== null ? { scoreScaled: facts.scoreScaled } : {}),
              });
              break;
            case "failed":
              session.failed = true;
              await deps.attempts.reportItem(tx, attempt.id, au.id, {
                success: "failed",
                ...(facts.scoreScaled !== null ? { scoreScaled: facts.scoreScaled } : {}),
              });
              break;
            case "terminated": {
              session.state = "terminated";
              session.endedAt = now();
              session.reportedSeconds = facts.seconds;
              const reported = (item?.reportedSeconds ?? 0) + (facts.seconds ?? 0);
              await deps.attempts.reportItem(tx, attempt.id, au.id, { reportedSeconds: reported });
              await deps.attempts.reportAttempt(tx, attempt.id, {
                reportedSeconds: attempt.reportedSeconds + (facts.seconds ?? 0),
              });
              attempt.reportedSeconds += facts.seconds ?? 0;
              break;
            }
            case "allowed":
              break;
          }
          if ((facts.kind === "completed" || facts.kind === "passed") && !attempt.satisfiedAt) {
            if (await settle(tx, attempt, run, caller.agent, session.id)) {
              attempt.satisfiedAt = now();
              satisfied = {
                userId: attempt.userId,
                courseId: attempt.courseId,
                moduleId: attempt.moduleId,
              };
            }
          }
        }
        // Counted once for the whole batch: refused whole, it stores none of its statements.
        if (
          storedBytes > 0 &&
          (await repo.addUsage(session.registration, storedBytes)) > REGISTRATION_STORAGE_BYTES
        ) {
          throw xapiStorageFull(REGISTRATION_FULL);
        }
        await repo.updateSession(session.id, {
          state: session.state,
          completed: session.completed,
          passed: session.passed,
          failed: session.failed,
          endedAt: session.endedAt,
          reportedSeconds: session.reportedSeconds,
        });
        return stored;
      });
      if (satisfied) await completeAfter(satisfied);
      return ids;
    },

    /** One statement of the caller's registration, by id (voided ones are never stored). */
    async getStatement(authorization: string | undefined, id: string) {
      return asCaller(authorization, async ({ tx, session }) => {
        if (!isUuid(id)) throw invalidXapi("a statement's id is a UUID.");
        const row = await createCmi5Repository(tx).findStatement(id);
        if (!row || row.registration !== session.registration) throw xapiNotFound();
        return row.statement;
      });
    },

    /** The caller's registration's statements, filtered as xAPI's simple query does. */
    async queryStatements(
      authorization: string | undefined,
      input: {
        agent?: string;
        registration?: string;
        verb?: string;
        activity?: string;
        since?: string;
        until?: string;
        ascending: boolean;
        limit: number;
        cursor?: number;
        moreOf: (cursor: number) => string;
      },
    ) {
      return asCaller(authorization, async (caller) => {
        if (input.agent !== undefined) checkScope(caller, { agent: input.agent }, false);
        if (
          input.registration !== undefined &&
          input.registration !== caller.session.registration
        ) {
          throw xapiForbidden("another registration");
        }
        const rows = await createCmi5Repository(caller.tx).statements({
          registration: caller.session.registration,
          verb: input.verb,
          activity: input.activity,
          since: timestampParameter("since", input.since),
          until: timestampParameter("until", input.until),
          ascending: input.ascending,
          afterSeq: input.cursor,
          limit: input.limit + 1,
        });
        return statementResult(rows, input.limit, input.moreOf);
      });
    },

    /** A state document, or the ids of the activity's documents when no stateId is named. */
    async getState(
      authorization: string | undefined,
      q: {
        activityId?: string;
        agent?: string;
        registration?: string;
        stateId?: string;
        since?: string;
      },
    ): Promise<XapiDocument | string[]> {
      return asCaller(authorization, async (caller) => {
        if (!q.activityId) throw invalidXapi("the activityId parameter is required.");
        checkScope(caller, q, true);
        const repo = createCmi5Repository(caller.tx);
        if (q.stateId === undefined) {
          const since = timestampParameter("since", q.since);
          return repo.stateIds(caller.session.registration, q.activityId, since);
        }
        if (q.stateId === LAUNCH_DATA && q.activityId === caller.session.activityId) {
          await repo.updateSession(caller.session.id, { launchDataRead: true });
        }
        return (await repo.getState(caller.session.registration, q.activityId, q.stateId)) ?? null;
      }).then(found);
    },

    /** Writes (PUT) or merges (POST) a state document; LMS.LaunchData is the LMS's alone. */
    async writeState(
      authorization: string | undefined,
      mode: "put" | "post",
      q: { activityId?: string; agent?: string; registration?: string; stateId?: string },
      doc: XapiDocument,
      preconditions?: Preconditions,
    ): Promise<void> {
      await asCaller(authorization, async (caller) => {
        if (!q.activityId || !q.stateId) throw invalidXapi("activityId and stateId are required.");
        checkScope(caller, q, true);
        if (q.stateId === LAUNCH_DATA)
          throw statementRefused("only the LMS writes LMS.LaunchData.");
        const repo = createCmi5Repository(caller.tx);
        const key = {
          registration: caller.session.registration,
          activityId: q.activityId,
          stateId: q.stateId,
        };
        const existing = await repo.getState(key.registration, key.activityId, key.stateId);
        checkPreconditions(existing, preconditions);
        const next = mode === "put" ? doc : mergedDocument(existing, doc);
        // A write that shrinks what the registration keeps is never refused.
        const grows =
          documentBytes([key.activityId, key.stateId], next.content) - (await repo.stateBytes(key));
        const total = await repo.addUsage(key.registration, grows);
        if (grows > 0 && total > REGISTRATION_STORAGE_BYTES) {
          throw xapiStorageFull(REGISTRATION_FULL);
        }
        await repo.putState(key, { contentType: next.contentType, content: next.content });
      });
    },

    /** Deletes a state document, or all of the activity's (never LMS.LaunchData). */
    async deleteState(
      authorization: string | undefined,
      q: { activityId?: string; agent?: string; registration?: string; stateId?: string },
      preconditions?: Preconditions,
    ): Promise<void> {
      await asCaller(authorization, async (caller) => {
        if (!q.activityId) throw invalidXapi("the activityId parameter is required.");
        checkScope(caller, q, true);
        if (q.stateId === LAUNCH_DATA)
          throw statementRefused("only the LMS deletes LMS.LaunchData.");
        const repo = createCmi5Repository(caller.tx);
        const { registration } = caller.session;
        if (q.stateId !== undefined) {
          const existing = await repo.getState(registration, q.activityId, q.stateId);
          checkPreconditions(existing, preconditions);
        }
        const freed = await repo.deleteStates(registration, q.activityId, q.stateId);
        if (freed > 0) await repo.addUsage(registration, -freed);
      });
    },

    /** An agent profile document of the learner, or the ids of theirs. */
    async getProfile(
      authorization: string | undefined,
      q: { agent?: string; profileId?: string; since?: string },
    ): Promise<XapiDocument | string[]> {
      return asCaller(authorization, async (caller) => {
        checkScope(caller, q, false);
        const repo = createCmi5Repository(caller.tx);
        if (q.profileId === undefined) {
          const since = timestampParameter("since", q.since);
          return repo.profileIds(caller.session.userId, since);
        }
        // Read, even when there is none yet: the AU may initialize now (cmi5 11).
        if (q.profileId === LEARNER_PREFERENCES) {
          await repo.updateSession(caller.session.id, { preferencesRead: true });
        }
        return (await repo.getProfile(caller.session.userId, q.profileId)) ?? null;
      }).then(found);
    },

    /** Writes or merges an agent profile document; cmi5LearnerPreferences is checked (cmi5 11). */
    async writeProfile(
      authorization: string | undefined,
      mode: "put" | "post",
      q: { agent?: string; profileId?: string },
      doc: XapiDocument,
      preconditions?: Preconditions,
    ): Promise<void> {
      await asCaller(authorization, async (caller) => {
        checkScope(caller, q, false);
        if (!q.profileId) throw invalidXapi("the profileId parameter is required.");
        const repo = createCmi5Repository(caller.tx);
        const existing = await repo.getProfile(caller.session.userId, q.profileId);
        checkPreconditions(existing, preconditions);
        const next = mode === "put" ? doc : mergedDocument(existing, doc);
        if (q.profileId === LEARNER_PREFERENCES) checkLearnerPreferences(next);
        // A write that shrinks what the learner keeps is never refused.
        const bytes = documentBytes([q.profileId], next.content);
        const grows = bytes - (existing ? documentBytes([q.profileId], existing.content) : 0);
        if (
          grows > 0 &&
          (await repo.profileBytes(caller.session.userId, q.profileId)) + bytes >
            PROFILE_STORAGE_BYTES
        ) {
          throw xapiStorageFull(PROFILES_FULL);
        }
        await repo.putProfile(
          { userId: caller.session.userId, profileId: q.profileId },
          { contentType: next.contentType, content: next.content },
        );
      });
    },

    async deleteProfile(
      authorization: string | undefined,
      q: { agent?: string; profileId?: string },
      preconditions?: Preconditions,
    ) {
      await asCaller(authorization, async (caller) => {
        checkScope(caller, q, false);
        if (!q.profileId) throw invalidXapi("the profileId parameter is required.");
        const repo = createCmi5Repository(caller.tx);
        checkPreconditions(
          await repo.getProfile(caller.session.userId, q.profileId),
          preconditions,
        );
        await repo.deleteProfile(caller.session.userId, q.profileId);
      });
    },
  };
}
