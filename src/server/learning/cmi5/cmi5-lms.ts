import { createHash, randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Cmi5StatementResult, Cmi5Status, Course } from "../../../contract";
import type { Cmi5Au, Cmi5Description } from "../../catalogue";
import type { Database, Executor } from "../../db/client";
import type {
  PackageAttempt as PackageAttemptRow,
  PackageAttempts,
  PackageItemState as PackageItemStateRow,
} from "../package-runs/package-attempts.service";
import { createCmi5Repository } from "./cmi5.repository";
import type { Cmi5SessionRow } from "./cmi5.table";
import {
  type ActivityIds,
  abandonedStatement,
  activityIdsOf,
  type Issue,
  satisfiedStatement,
} from "./lms-statements";
import { type AuReport, auSatisfied, satisfiedNodes } from "./move-on";
import { type AccountAgent, agentOf } from "./xapi-values";

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
export interface Cmi5Run {
  packageId: string;
  aus: Cmi5Au[];
  structure: Pick<Cmi5Description, "courseId" | "blocks" | "title">;
  ids: ActivityIds;
}

export const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
export const token = () => randomBytes(32).toString("base64url");

export const reportsOf = (states: PackageItemStateRow[]) =>
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

/**
 * The LMS's own records of a cmi5 course, shared by the launches on the portal and the xAPI
 * resources on the content origin: a package's run, the LMS's statements, moveOn settled into
 * satisfied statements and the attempt, the module completed through the one gate.
 */
export function createCmi5Lms(deps: Cmi5ServiceDeps) {
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

  const statementResult = (
    rows: { seq: number; statement: Record<string, unknown> }[],
    limit: number,
    moreOf: (cursor: number) => string,
  ): Cmi5StatementResult => ({
    statements: rows.slice(0, limit).map((r) => r.statement),
    more: rows.length > limit ? moreOf(rows[limit - 1]!.seq) : "",
  });

  return {
    db,
    deps,
    now,
    authority,
    runOf,
    issueOf,
    store,
    settle,
    completeAfter,
    abandon,
    statusOf,
    statementResult,
  };
}

export type Cmi5Lms = ReturnType<typeof createCmi5Lms>;
