import { randomUUID } from "node:crypto";
import {
  type Cmi5Launch,
  type Cmi5LaunchMode,
  type Cmi5StatementResult,
  type Cmi5Status,
  type Cmi5WaiveBody,
  isModuleUnlocked,
} from "../../../contract";
import type { Cmi5Au } from "../../catalogue";
import {
  alreadySatisfied,
  auNotFound,
  courseNotFound,
  enrollmentNotFound,
  moduleLocked,
  moduleNotInCourse,
  notCmi5Module,
  notEnrolled,
  notLaunched,
} from "./cmi5.errors";
import { createCmi5Repository } from "./cmi5.repository";
import {
  type Cmi5Run,
  type Cmi5ServiceDeps,
  createCmi5Lms,
  reportsOf,
  sha256,
  token,
} from "./cmi5-lms";
import { contextTemplateOf, launchedStatement, waivedStatement } from "./lms-statements";
import { auSatisfied } from "./move-on";
import { createXapiResources } from "./xapi-resources";
import { agentOf, LAUNCH_DATA } from "./xapi-values";

export type { Cmi5ServiceDeps };

/**
 * The portal as a cmi5 LMS. A learner launches an AU of a cmi5 module: the attempt's
 * registration is opened, a session made with a one-time fetch URL, LMS.LaunchData written
 * and the launch recorded. The AU then reports to the xAPI resources on the content origin
 * with its session's token, under the cmi5 rules; the LMS keeps each AU's result on the
 * attempt, says which blocks and the course are satisfied, and completes the module through
 * the enrollments' one gate once the course is.
 */
export function createCmi5Service(deps: Cmi5ServiceDeps) {
  const lms = createCmi5Lms(deps);
  const {
    db,
    now,
    runOf,
    issueOf,
    store,
    settle,
    completeAfter,
    abandon,
    statusOf,
    statementResult,
  } = lms;

  /** The cmi5 course a module plays, or the refusal of a module without one. */
  async function moduleRun(courseId: string, moduleId: string) {
    const packageId = await deps.courses.modulePackageId(courseId, moduleId);
    const run = packageId ? await runOf(packageId) : undefined;
    if (!run) throw notCmi5Module();
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
    const run = await moduleRun(course.id, module.id);
    return {
      course,
      module,
      run,
      unlocked: isModuleUnlocked(order, module.id, completed),
      completed: completed.includes(module.id),
    };
  }

  async function launchUrlOf(run: Cmi5Run, au: Cmi5Au): Promise<URL> {
    if ("url" in au.launch) return new URL(au.launch.url);
    const path = au.launch.file.split("/").map(encodeURIComponent).join("/");
    return new URL(`${await deps.packageBase(run.packageId)}${path}${au.launch.query}`);
  }

  return {
    ...createXapiResources(lms),
    /**
     * Launches an AU of the learner's cmi5 module: opens (or continues) the attempt, ends
     * the registration's unterminated sessions as abandoned, makes a session, writes
     * LMS.LaunchData and the launched statement, and answers the AU's launch URL.
     */
    async launch(input: {
      userId: string;
      /** The portal sign-in launching it: the AU may report while it lasts. */
      portalSession: string;
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
          portalSession: input.portalSession,
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
      const run = await moduleRun(course.id, module.id);
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
  };
}

export type Cmi5Service = ReturnType<typeof createCmi5Service>;
