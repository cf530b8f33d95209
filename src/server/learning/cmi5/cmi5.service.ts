import { createHash, randomBytes, randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { FastifyBaseLogger } from "fastify";
import {
  type Cmi5Launch,
  type Cmi5LaunchMode,
  type Cmi5StatementResult,
  type Cmi5Status,
  type Cmi5WaiveBody,
  type Course,
  isModuleUnlocked,
} from "../../../contract";
import type { Cmi5Au, Cmi5Description } from "../../catalogue";
import type { Database, Executor } from "../../db/client";
import type {
  PackageAttempt as PackageAttemptRow,
  PackageAttempts,
  PackageItemState as PackageItemStateRow,
} from "../package-runs/package-attempts.service";
import {
  alreadySatisfied,
  auNotFound,
  courseNotFound,
  enrollmentNotFound,
  invalidXapi,
  moduleLocked,
  moduleNotInCourse,
  notCmi5Module,
  notEnrolled,
  notLaunched,
  statementConflict,
  statementRefused,
  xapiForbidden,
  xapiNotFound,
  xapiUnauthorized,
} from "./cmi5.errors";
import { createCmi5Repository } from "./cmi5.repository";
import type { Cmi5SessionRow } from "./cmi5.table";
import {
  type ActivityIds,
  abandonedStatement,
  activityIdsOf,
  contextTemplateOf,
  type Issue,
  launchedStatement,
  satisfiedStatement,
  waivedStatement,
} from "./lms-statements";
import { type AuReport, auSatisfied, satisfiedNodes } from "./move-on";
import { checkAuStatement } from "./statement-rules";
import {
  type AccountAgent,
  agentOf,
  isAgent,
  LAUNCH_DATA,
  LEARNER_PREFERENCES,
  XAPI_VERSION,
} from "./xapi-values";

/** The fetch URL works for this long after the launch; the auth token for a day after. */
const FETCH_LIFETIME_MS = 60 * 60 * 1000;
const AUTH_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface Cmi5ServiceDeps {
  db: Database;
  courses: {
    findMany(ids: string[]): Promise<Map<string, Course>>;
    modulePackageId(courseId: string, moduleId: string): Promise<string | undefined>;
  };
  packages: {
    runOf(
      id: string,
    ): Promise<{ standard: string; items: unknown[]; structure: unknown } | undefined>;
  };
  enrollments: {
    completedModules(userId: string, courseId: string): Promise<string[] | null>;
    completeModule(input: { userId: string; courseId: string; moduleId: string }): Promise<unknown>;
  };
  attempts: PackageAttempts;
  /** The portal's origin: learners' xAPI accounts and the LMS's activity ids live under it. */
  portalOrigin: string;
  /** The content origin, where AUs run and report (`/xapi/`, `/cmi5/fetch/`). */
  contentOrigin: string;
  /** Where a package's files are served on the content origin (ends with "/"). */
  packageBase(packageId: string): Promise<string>;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, "warn">;
}

/** A cmi5 course as the LMS runs it: its AUs and structure, with the ids the LMS gave them. */
interface Cmi5Run {
  packageId: string;
  aus: Cmi5Au[];
  structure: Pick<Cmi5Description, "courseId" | "blocks" | "title">;
  ids: ActivityIds;
}

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

/** A document read, or 404 once the read itself is recorded (outside its transaction). */
function found<T>(doc: T | null): T {
  if (doc === null) throw xapiNotFound();
  return doc;
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const token = () => randomBytes(32).toString("base64url");

const reportsOf = (states: PackageItemStateRow[]) =>
  new Map<string, AuReport>(
    states.map((s) => [
      s.itemId,
      {
        completed: s.completion === "completed",
        passed: s.success === "passed",
        waived: typeof s.data.waived === "string",
      },
    ]),
  );

const isJsonType = (contentType: string) => /^application\/json\s*(;|$)/i.test(contentType.trim());

function parseJsonObject(doc: XapiDocument): Record<string, unknown> | undefined {
  if (!isJsonType(doc.contentType)) return undefined;
  try {
    const value = JSON.parse(doc.content.toString("utf8"));
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
 * The portal as a cmi5 LMS. A learner launches an AU of a cmi5 module: the attempt's
 * registration is opened, a session made with a one-time fetch URL, LMS.LaunchData written
 * and the launch recorded. The AU then reports to the xAPI resources on the content origin
 * with its session's token, under the cmi5 rules; the LMS keeps each AU's result on the
 * attempt, says which blocks and the course are satisfied, and completes the module through
 * the enrollments' one gate once the course is.
 */
export function createCmi5Service(deps: Cmi5ServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const authority = agentOf(deps.portalOrigin, "credo-lms");
  const runs = new Map<string, Cmi5Run>();

  /** A package's run, read once (a package never changes once unpacked). */
  async function runOf(packageId: string): Promise<Cmi5Run | undefined> {
    const cached = runs.get(packageId);
    if (cached) return cached;
    const row = await deps.packages.runOf(packageId);
    if (!row || row.standard !== "cmi5") return undefined;
    const structure = row.structure as Cmi5Description;
    const run: Cmi5Run = {
      packageId,
      aus: row.items as Cmi5Au[],
      structure: { courseId: structure.courseId, blocks: structure.blocks, title: structure.title },
      ids: activityIdsOf(deps.portalOrigin, packageId),
    };
    if (runs.size > 500) runs.clear();
    runs.set(packageId, run);
    return run;
  }

  /** The learner's cmi5 module, checked as the player's routes check a video module. */
  async function learnerModule(input: { userId: string; courseId: string; moduleId: string }) {
    const course = (await deps.courses.findMany([input.courseId])).get(input.courseId);
    if (!course?.isPublished) throw courseNotFound();
    const completed = await deps.enrollments.completedModules(input.userId, course.id);
    if (completed === null) throw notEnrolled();
    const module = course.modules.find((m) => m.id === input.moduleId);
    if (!module) throw moduleNotInCourse();
    if (module.kind !== "cmi5") throw notCmi5Module();
    const order = course.modules.map((m) => m.id);
    const packageId = await deps.courses.modulePackageId(course.id, module.id);
    const run = packageId ? await runOf(packageId) : undefined;
    if (!run) throw notCmi5Module();
    return {
      course,
      module,
      run,
      unlocked: isModuleUnlocked(order, module.id, completed),
      completed: completed.includes(module.id),
    };
  }

  const issueOf = (agent: AccountAgent, registration: string, sessionId: string): Issue => ({
    agent,
    registration,
    sessionId,
    authority,
    now: now(),
  });

  async function store(
    tx: Executor,
    statement: Record<string, unknown> & { id: string },
    registration: string,
    sessionId: string | null,
  ) {
    await createCmi5Repository(tx).insertStatement({
      id: statement.id,
      registration,
      verb: (statement.verb as { id: string }).id,
      objectId: ((statement.object as { id?: unknown }).id as string | undefined) ?? null,
      sessionId,
      statement,
    });
  }

  /**
   * Writes the satisfied statements the registration now calls for (blocks, then the course),
   * in `sessionId`; answers whether the course became satisfied with this call.
   */
  async function settle(
    tx: Executor,
    attempt: PackageAttemptRow,
    run: Cmi5Run,
    agent: AccountAgent,
    sessionId: string,
  ): Promise<boolean> {
    const repo = createCmi5Repository(tx);
    const states = await deps.attempts.itemStates(tx, attempt.id);
    const reports = reportsOf(states);
    const already = await repo.satisfiedObjects(attempt.registration);
    let courseNow = false;
    for (const node of satisfiedNodes(run.structure, run.aus, reports)) {
      const objectId = node.kind === "course" ? run.ids.course() : run.ids.block(node.index);
      if (already.has(objectId)) continue;
      const title =
        node.kind === "course"
          ? run.structure.title
          : (run.structure.blocks[node.index]?.title ?? "");
      await store(
        tx,
        satisfiedStatement(issueOf(agent, attempt.registration, sessionId), node, run.ids, title),
        attempt.registration,
        sessionId,
      );
      if (node.kind === "course") courseNow = true;
    }
    if (courseNow && !attempt.satisfiedAt) {
      const scores = states.flatMap((s) => (s.scoreScaled === null ? [] : [s.scoreScaled]));
      const judged = run.aus.filter((au) => au.moveOn !== "NotApplicable");
      await deps.attempts.reportAttempt(tx, attempt.id, {
        satisfiedAt: now(),
        completion: "completed",
        success:
          judged.length &&
          judged.every((au) => reports.get(au.id)?.passed || reports.get(au.id)?.waived)
            ? "passed"
            : attempt.success,
        scoreScaled: scores.length
          ? scores.reduce((a, b) => a + b, 0) / scores.length
          : attempt.scoreScaled,
      });
      return true;
    }
    return false;
  }

  /** Completes the module through the one gate, after the transaction that satisfied it. */
  async function completeAfter(key: { userId: string; courseId: string; moduleId: string }) {
    try {
      await deps.enrollments.completeModule(key);
    } catch (err) {
      // A rule of the course beyond the content (seat time) may hold it back for now.
      deps.log?.warn({ err, ...key }, "cmi5: the satisfied module did not complete yet");
    }
  }

  /** Ends a session the AU never terminated: the LMS records it abandoned (cmi5 9.3.6). */
  async function abandon(tx: Executor, session: Cmi5SessionRow, run: Cmi5Run, agent: AccountAgent) {
    const au = run.aus[session.auIndex];
    const ended = now();
    if (au) {
      const seconds = (ended.getTime() - session.launchedAt.getTime()) / 1000;
      await store(
        tx,
        abandonedStatement(
          issueOf(agent, session.registration, session.id),
          au,
          session.activityId,
          seconds,
        ),
        session.registration,
        session.id,
      );
    }
    await createCmi5Repository(tx).updateSession(session.id, {
      state: "abandoned",
      endedAt: ended,
    });
  }

  async function launchUrlOf(run: Cmi5Run, au: Cmi5Au): Promise<URL> {
    if ("url" in au.launch) return new URL(au.launch.url);
    const path = au.launch.file.split("/").map(encodeURIComponent).join("/");
    return new URL(`${await deps.packageBase(run.packageId)}${path}${au.launch.query}`);
  }

  async function statusOf(
    attempt: PackageAttemptRow | undefined,
    run: Cmi5Run,
    moduleCompleted: boolean,
    tx: Executor = db,
  ): Promise<Cmi5Status> {
    const states = attempt ? await deps.attempts.itemStates(tx, attempt.id) : [];
    const launched = attempt
      ? await createCmi5Repository(tx).launchedAus(attempt.registration)
      : new Set<string>();
    const byId = new Map(states.map((s) => [s.itemId, s]));
    const reports = reportsOf(states);
    return {
      registration: attempt?.registration ?? null,
      satisfied: !!attempt?.satisfiedAt,
      moduleCompleted,
      aus: run.aus.map((au) => {
        const state = byId.get(au.id);
        return {
          id: au.id,
          title: au.title,
          moveOn: au.moveOn,
          launchMethod: au.launchMethod,
          launched: launched.has(au.id),
          completed: state?.completion === "completed",
          passed: state?.success === "passed",
          failed: state?.success === "failed",
          waived: typeof state?.data.waived === "string" ? (state.data.waived as string) : null,
          satisfied: auSatisfied(au, reports.get(au.id)),
          scoreScaled: state?.scoreScaled ?? null,
        };
      }),
    };
  }

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
    if (!next) throw invalidXapi("POST merges JSON objects only.");
    if (!existing) return incoming;
    const before = parseJsonObject(existing);
    if (!before) throw invalidXapi("the stored document is not a JSON object to merge into.");
    return {
      contentType: "application/json",
      content: Buffer.from(JSON.stringify({ ...before, ...next })),
    };
  }

  const statementResult = (
    rows: { seq: number; statement: Record<string, unknown> }[],
    limit: number,
    moreOf: (cursor: number) => string,
  ): Cmi5StatementResult => ({
    statements: rows.slice(0, limit).map((r) => r.statement),
    more: rows.length > limit ? moreOf(rows[limit - 1]!.seq) : "",
  });

  return {
    /**
     * Launches an AU of the learner's cmi5 module: opens (or continues) the attempt, ends
     * the registration's unterminated sessions as abandoned, makes a session, writes
     * LMS.LaunchData and the launched statement, and answers the AU's launch URL.
     */
    async launch(input: {
      userId: string;
      courseId: string;
      moduleId: string;
      auId: string;
      launchMode: Cmi5LaunchMode;
    }): Promise<Cmi5Launch> {
      const { course, module, run, unlocked } = await learnerModule(input);
      if (!unlocked) throw moduleLocked();
      const auIndex = run.aus.findIndex((au) => au.id === input.auId);
      const au = run.aus[auIndex];
      if (!au) throw auNotFound();
      const fetchToken = token();
      const activityId = run.ids.au(auIndex);
      const agent = agentOf(deps.portalOrigin, input.userId);
      const auUrl = await launchUrlOf(run, au);
      const key = { userId: input.userId, courseId: course.id, moduleId: module.id };

      const { session, satisfiedNow, registration } = await db.transaction(async (tx) => {
        const repo = createCmi5Repository(tx);
        const opened = await deps.attempts.open(tx, { ...key, packageId: run.packageId });
        const attempt = (await deps.attempts.lockByRegistration(tx, opened.registration))!;
        for (const open of await repo.openSessions(attempt.registration)) {
          await abandon(tx, open, run, agent);
        }
        const session = await repo.insertSession({
          registration: attempt.registration,
          userId: input.userId,
          auIndex,
          auId: au.id,
          activityId,
          launchMode: input.launchMode,
          fetchTokenHash: sha256(fetchToken),
          launchedAt: now(),
          lastActivityAt: now(),
        });
        // NotApplicable AUs are satisfied from the registration's start (cmi5 9.6.1.1).
        const satisfiedNow = await settle(tx, attempt, run, agent, session.id);
        await repo.putState(
          { registration: attempt.registration, activityId, stateId: LAUNCH_DATA },
          {
            contentType: "application/json",
            content: Buffer.from(
              JSON.stringify({
                contextTemplate: contextTemplateOf(session.id, au),
                launchMode: input.launchMode,
                moveOn: au.moveOn,
                returnURL: `${deps.contentOrigin}/cmi5/returned`,
                ...(au.launchParameters !== null ? { launchParameters: au.launchParameters } : {}),
                ...(au.masteryScore !== null ? { masteryScore: au.masteryScore } : {}),
                ...(au.entitlementKey !== null
                  ? { entitlementKey: { courseStructure: au.entitlementKey } }
                  : {}),
              }),
            ),
          },
        );
        await store(
          tx,
          launchedStatement(issueOf(agent, attempt.registration, session.id), au, activityId, {
            mode: input.launchMode,
            url: auUrl.href,
          }),
          attempt.registration,
          session.id,
        );
        return { session, satisfiedNow, registration: attempt.registration };
      });
      if (satisfiedNow) await completeAfter(key);

      const url = new URL(auUrl.href);
      // No trailing slash: cmi5 libraries append "/statements" and the like themselves.
      url.searchParams.set("endpoint", `${deps.contentOrigin}/xapi`);
      url.searchParams.set("fetch", `${deps.contentOrigin}/cmi5/fetch/${fetchToken}`);
      url.searchParams.set("actor", JSON.stringify(agent));
      url.searchParams.set("registration", registration);
      url.searchParams.set("activityId", activityId);
      return { url: url.href, launchMethod: au.launchMethod, sessionId: session.id };
    },

    /** The learner's attempt at a cmi5 module, AU by AU. */
    async status(input: {
      userId: string;
      courseId: string;
      moduleId: string;
    }): Promise<Cmi5Status> {
      const { run, completed } = await learnerModule(input);
      const attempt = await deps.attempts.findOpen(db, input);
      return statusOf(attempt?.packageId === run.packageId ? attempt : undefined, run, completed);
    },

    /**
     * An administrator waives an AU for a learner (cmi5 9.3.7): the LMS records it waived,
     * it counts as satisfied, and the blocks and course it completes are satisfied with it.
     */
    async waive(
      input: { courseId: string; moduleId: string } & Cmi5WaiveBody,
    ): Promise<Cmi5Status> {
      const course = (await deps.courses.findMany([input.courseId])).get(input.courseId);
      if (!course) throw courseNotFound();
      if ((await deps.enrollments.completedModules(input.userId, course.id)) === null) {
        throw enrollmentNotFound();
      }
      const module = course.modules.find((m) => m.id === input.moduleId);
      if (!module) throw moduleNotInCourse();
      if (module.kind !== "cmi5") throw notCmi5Module();
      const packageId = await deps.courses.modulePackageId(course.id, module.id);
      const run = packageId ? await runOf(packageId) : undefined;
      if (!run) throw notCmi5Module();
      const auIndex = run.aus.findIndex((au) => au.id === input.auId);
      const au = run.aus[auIndex];
      if (!au) throw auNotFound();
      const key = { userId: input.userId, courseId: course.id, moduleId: module.id };
      const agent = agentOf(deps.portalOrigin, input.userId);
      const { fresh, satisfiedNow } = await db.transaction(async (tx) => {
        const open = await deps.attempts.findOpen(tx, key);
        if (!open || open.packageId !== run.packageId) throw notLaunched();
        const attempt = (await deps.attempts.lockByRegistration(tx, open.registration))!;
        const reports = reportsOf(await deps.attempts.itemStates(tx, attempt.id));
        if (auSatisfied(au, reports.get(au.id))) throw alreadySatisfied();
        const sessionId = randomUUID();
        await store(
          tx,
          waivedStatement(
            issueOf(agent, attempt.registration, sessionId),
            au,
            run.ids.au(auIndex),
            input.reason,
          ),
          attempt.registration,
          sessionId,
        );
        await deps.attempts.reportItem(tx, attempt.id, au.id, { data: { waived: input.reason } });
        const satisfiedNow = await settle(tx, attempt, run, agent, sessionId);
        const fresh = (await deps.attempts.findByRegistration(tx, attempt.registration))!;
        return { fresh, satisfiedNow };
      });
      if (satisfiedNow) await completeAfter(key);
      const completed = await deps.enrollments.completedModules(key.userId, key.courseId);
      return statusOf(fresh, run, !!completed?.includes(key.moduleId));
    },

    /** A registration's statements for administrators (xAPI's StatementResult). */
    async statementsFor(input: {
      registration: string;
      verb?: string;
      ascending: boolean;
      limit: number;
      cursor?: number;
      moreOf: (cursor: number) => string;
    }): Promise<Cmi5StatementResult> {
      const rows = await createCmi5Repository(db).statements({
        registration: input.registration,
        verb: input.verb,
        ascending: input.ascending,
        afterSeq: input.cursor,
        limit: input.limit + 1,
      });
      return statementResult(rows, input.limit, input.moreOf);
    },

    /**
     * The fetch URL (cmi5 8.2): the first call answers the session's auth token; every
     * later one, or an unknown or expired URL, answers cmi5's error object.
     */
    async fetch(fetchToken: string): Promise<Record<string, string>> {
      return db.transaction(async (tx): Promise<Record<string, string>> => {
        const repo = createCmi5Repository(tx);
        const session = await repo.lockSessionByToken("fetch", sha256(fetchToken));
        if (!session || session.launchedAt.getTime() + FETCH_LIFETIME_MS <= now().getTime()) {
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
          const existing =
            raw && typeof raw === "object" && typeof (raw as { id?: unknown }).id === "string"
              ? await repo.findStatement((raw as { id: string }).id)
              : undefined;
          if (existing) {
            const { stored: _s, authority: _a, version: _v, ...kept } = existing.statement;
            if (existing.registration === session.registration && isDeepStrictEqual(kept, raw)) {
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
          await store(
            tx,
            { ...st, stored: at, authority, version: (st.version as string) ?? XAPI_VERSION },
            session.registration,
            session.id,
          );
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
          const since = q.since ? new Date(q.since) : undefined;
          if (since && Number.isNaN(since.getTime()))
            throw invalidXapi("since is not a timestamp.");
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
        const next =
          mode === "put"
            ? doc
            : mergedDocument(
                await repo.getState(key.registration, key.activityId, key.stateId),
                doc,
              );
        await repo.putState(key, { contentType: next.contentType, content: next.content });
      });
    },

    /** Deletes a state document, or all of the activity's (never LMS.LaunchData). */
    async deleteState(
      authorization: string | undefined,
      q: { activityId?: string; agent?: string; registration?: string; stateId?: string },
    ): Promise<void> {
      await asCaller(authorization, async (caller) => {
        if (!q.activityId) throw invalidXapi("the activityId parameter is required.");
        checkScope(caller, q, true);
        if (q.stateId === LAUNCH_DATA)
          throw statementRefused("only the LMS deletes LMS.LaunchData.");
        await createCmi5Repository(caller.tx).deleteStates(
          caller.session.registration,
          q.activityId,
          q.stateId,
        );
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
          const since = q.since ? new Date(q.since) : undefined;
          if (since && Number.isNaN(since.getTime()))
            throw invalidXapi("since is not a timestamp.");
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
    ): Promise<void> {
      await asCaller(authorization, async (caller) => {
        checkScope(caller, q, false);
        if (!q.profileId) throw invalidXapi("the profileId parameter is required.");
        const repo = createCmi5Repository(caller.tx);
        const existing = await repo.getProfile(caller.session.userId, q.profileId);
        const next = mode === "put" ? doc : mergedDocument(existing, doc);
        if (q.profileId === LEARNER_PREFERENCES) checkLearnerPreferences(next);
        await repo.putProfile(
          { userId: caller.session.userId, profileId: q.profileId },
          { contentType: next.contentType, content: next.content },
        );
      });
    },

    async deleteProfile(
      authorization: string | undefined,
      q: { agent?: string; profileId?: string },
    ) {
      await asCaller(authorization, async (caller) => {
        checkScope(caller, q, false);
        if (!q.profileId) throw invalidXapi("the profileId parameter is required.");
        await createCmi5Repository(caller.tx).deleteProfile(caller.session.userId, q.profileId);
      });
    },
  };
}

export type Cmi5Service = ReturnType<typeof createCmi5Service>;
