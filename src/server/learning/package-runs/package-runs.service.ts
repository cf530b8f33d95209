import {
  type Course,
  isModuleUnlocked,
  type PackageAttemptStatus,
  type PackageLaunch,
  type PackagePreview,
  type PackageStandard,
  type ScormCommitBody,
  type ScormItemAnswer,
  type ScormItemLaunch,
} from "../../../contract";
import type { Database } from "../../db/client";
import { AppError } from "../../plugins/errors";
import { defineStep } from "../enrollments/completion-steps";
import { type ItemOutcome, itemSatisfied, rollUp } from "./package-rules";
import {
  attemptEnded,
  courseNotFound,
  dataInvalid,
  itemNotFound,
  moduleLocked,
  moduleNotInCourse,
  notAPackage,
  notEnrolled,
  notSatisfied,
  notSeatedInPackage,
} from "./package-runs.errors";
import { createPackageRunsRepository } from "./package-runs.repository";
import type { PackageAttemptRow, PackageItemStateRow } from "./package-runs.table";
import { type ItemRules, parseScormData, readScormItem, scormStartData } from "./scorm-data";

/**
 * A package module (SCORM or cmi5) is complete when its content says so, as the package's
 * rules decide (SCORM completed or passed, cmi5 moveOn), and, in a verified course, once
 * the portal saw it open for the course's minimum seat time: a learner's own 'Mark as
 * Complete' never completes it sooner. As a rule on each module, it answers for package
 * modules before any other module rule, whose measures (a video watched) do not apply.
 * Only an attempt at the package the module plays now counts: one at a package an
 * administrator replaced was satisfied by content the module no longer holds, as a replaced
 * video's watching no longer counts either.
 */
export const packageCompletionStep = defineStep<null>({
  key: "modules",
  load: async () => null,
  async checkModule(tx, { enrollment, course, moduleId }) {
    const module = course.modules.find((m) => m.id === moduleId);
    if (!module || module.kind === "video") return;
    const attempt = await createPackageRunsRepository(tx).findOpenAtCurrentPackage({
      userId: enrollment.userId,
      courseId: course.id,
      moduleId,
    });
    if (!attempt?.satisfiedAt) throw notSatisfied();
    const minSeat = minSeatOf(course);
    if (attempt.seatSeconds < minSeat) throw notSeatedInPackage(minSeat - attempt.seatSeconds);
  },
});

/** The seat time a module of this course asks for: the minimum of a verified course. */
const minSeatOf = (course: Course) =>
  course.completionPolicy === "verified" ? (course.minSeatSeconds ?? 0) : 0;

/**
 * Seat time one beat can earn at most: two beat intervals, so a beat arriving late still
 * earns its time, and a page that stopped beating (a laptop asleep) earns nothing for the
 * gap.
 */
const MAX_SEAT_CREDIT_SECONDS = 30;

/** What opening an asset reports of it: SCORM counts an asset complete once launched. */
const ASSET_OPENED: ItemOutcome = {
  completion: "completed",
  success: "unknown",
  scoreScaled: null,
  reportedSeconds: 0,
};

/** A SCORM item as the packages feature describes it (scorm-manifest.ts). */
interface ScormItem {
  id: string;
  title: string;
  launch: { file: string; query: string };
  scormType: "sco" | "asset";
  isVisible: boolean;
  dataFromLms: string | null;
  masteryScore: number | null;
  completionThreshold: number | null;
  primaryObjective: { satisfiedByMeasure: boolean; minNormalizedMeasure: number | null } | null;
}

/** A package as its run time reads it (packages feature). */
interface PackageRun {
  id: string;
  standard: PackageStandard;
  items: ReadonlyArray<{ id: string; title: string; isVisible?: boolean }>;
}

export interface PackageRunsServiceDeps {
  db: Database;
  /** The courses feature: the course, and the package a module plays. */
  courses: {
    findMany(ids: string[]): Promise<Map<string, Course>>;
    modulePackageId(courseId: string, moduleId: string): Promise<string | undefined>;
  };
  /** The packages feature: what a package launches. */
  packages: { runOf(id: string): Promise<PackageRun | undefined> };
  /** The enrollments feature: the learner's completed modules, and the one gate. */
  enrollments: {
    completedModules(userId: string, courseId: string): Promise<string[] | null>;
    completeModule(input: { userId: string; courseId: string; moduleId: string }): Promise<string>;
  };
  /** Signed links to a package's files on the content origin. */
  links: { packageBase(packageId: string): Promise<string> };
  /** The content origin, where the SCORM launcher page is served. */
  contentOrigin: string;
  /** The clock of seat time; tests pass one they move. */
  now?: () => Date;
}

interface Learner {
  id: string;
  name: string;
}

interface ModuleRequest {
  userId: string;
  courseId: string;
  moduleId: string;
}

const isScorm = (standard: PackageStandard): standard is "scorm12" | "scorm2004" =>
  standard !== "cmi5";

/** The items whose outcome decides the package: its SCOs, or every item of a package of assets. */
function requiredItems(run: PackageRun): string[] {
  const items = run.items as ReadonlyArray<{ id: string; scormType?: string }>;
  const scos = items.filter((i) => i.scormType !== "asset");
  return (scos.length ? scos : items).map((i) => i.id);
}

function rulesOf(item: ScormItem): ItemRules {
  return {
    masteryScore: item.masteryScore,
    completionThreshold: item.completionThreshold,
    scaledPassingScore: item.primaryObjective?.satisfiedByMeasure
      ? item.primaryObjective.minNormalizedMeasure
      : null,
  };
}

const launchPathOf = (item: ScormItem) =>
  item.launch.file
    .split("/")
    .map((part) => encodeURIComponent(part))
    .join("/") + item.launch.query;

/**
 * The learner's runs of package modules: the launch (the open attempt, its items, where to
 * resume), the SCORM data model each SCO commits with what it says of the item and of the
 * whole, and the seat time the player reports. A run that meets the module's rule (and the
 * course's seat time) completes the module through the enrollments' one gate.
 */
export function createPackageRunsService(deps: PackageRunsServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const runtimeUrl = `${deps.contentOrigin}/runtime/scorm.html`;

  /** The course, module and package a learner may run now, or the refusal. */
  async function access(input: ModuleRequest) {
    const course = (await deps.courses.findMany([input.courseId])).get(input.courseId);
    if (!course?.isPublished) throw courseNotFound();
    const completed = await deps.enrollments.completedModules(input.userId, course.id);
    if (completed === null) throw notEnrolled();
    const module = course.modules.find((m) => m.id === input.moduleId);
    if (!module) throw moduleNotInCourse();
    if (module.kind === "video") throw notAPackage();
    const order = course.modules.map((m) => m.id);
    if (!isModuleUnlocked(order, module.id, completed)) throw moduleLocked();
    const run = await packageOf(course.id, module.id);
    return { course, completed, run, key: { ...input, packageId: run.id } };
  }

  /** The package a module plays, ready to run, or the refusal of a module without one. */
  async function packageOf(courseId: string, moduleId: string): Promise<PackageRun> {
    const packageId = await deps.courses.modulePackageId(courseId, moduleId);
    const run = packageId ? await deps.packages.runOf(packageId) : undefined;
    if (!run) throw notAPackage();
    return run;
  }

  function statusOf(
    course: Course,
    run: PackageRun,
    attempt: PackageAttemptRow,
    states: PackageItemStateRow[],
    moduleCompleted: boolean,
  ): PackageAttemptStatus {
    const byId = new Map(states.map((s) => [s.itemId, s]));
    return {
      attemptId: attempt.id,
      completion: attempt.completion,
      success: attempt.success,
      scoreScaled: attempt.scoreScaled,
      satisfied: attempt.satisfiedAt !== null,
      seatSeconds: Math.round(attempt.seatSeconds),
      reportedSeconds: Math.round(attempt.reportedSeconds),
      minSeatSeconds: minSeatOf(course),
      moduleCompleted,
      items: run.items.map((item) => {
        const s = byId.get(item.id);
        return {
          id: item.id,
          completion: s?.completion ?? "unknown",
          success: s?.success ?? "unknown",
          scoreScaled: s?.scoreScaled ?? null,
        };
      }),
    };
  }

  /**
   * Completes the module through the one gate once the run allows it. A step the course
   * asks for before the modules (an acknowledgement) may still refuse it: the module then
   * stays open, and the next commit or beat tries again.
   */
  async function completeIfDue(
    input: ModuleRequest,
    course: Course,
    attempt: PackageAttemptRow,
    completed: string[],
  ): Promise<boolean> {
    if (completed.includes(input.moduleId)) return true;
    if (!attempt.satisfiedAt || attempt.seatSeconds < minSeatOf(course)) return false;
    try {
      await deps.enrollments.completeModule(input);
      return true;
    } catch (err) {
      if (err instanceof AppError && err.statusCode < 500) return false;
      throw err;
    }
  }

  function itemLaunch(
    run: PackageRun,
    item: ScormItem,
    state: PackageItemStateRow | undefined,
    learner: Learner,
  ): ScormItemLaunch {
    const standard = run.standard as "scorm12" | "scorm2004";
    return {
      itemId: item.id,
      launchPath: launchPathOf(item),
      scormType: item.scormType,
      cmi: scormStartData({
        standard,
        stored: state && Object.keys(state.data).length ? state.data : undefined,
        learner,
        launchData: item.dataFromLms,
        rules: rulesOf(item),
        reportedSeconds: state?.reportedSeconds ?? 0,
      }),
    };
  }

  const findItem = (run: PackageRun, itemId: string) => {
    const item = run.items.find((i) => i.id === itemId);
    if (!item) throw itemNotFound();
    return item as unknown as ScormItem;
  };

  /**
   * Writes an item's outcome and the whole package's from every item's, in the attempt's
   * lock; marks the attempt satisfied the first time the package meets the module's rule.
   */
  async function record(
    key: ModuleRequest & { packageId: string },
    run: PackageRun,
    item: { id: string; data: Record<string, unknown> | null; outcome: ItemOutcome },
    launched?: string,
  ) {
    return db.transaction(async (tx) => {
      const repo = createPackageRunsRepository(tx);
      const attempt = await lockedAttempt(repo, key, launched);
      const before = (await repo.itemStates(attempt.id)).find((s) => s.itemId === item.id);
      await repo.saveItemState(attempt.id, item.id, {
        ...(item.data ? { data: item.data } : {}),
        ...item.outcome,
        // The time a SCO reports only grows: a reload starts its session from the total.
        reportedSeconds: Math.max(item.outcome.reportedSeconds, before?.reportedSeconds ?? 0),
      });
      const states = await repo.itemStates(attempt.id);
      const whole = rollUp(requiredItems(run), new Map(states.map((s) => [s.itemId, s])));
      const report = {
        completion: whole.completion,
        success: whole.success,
        scoreScaled: whole.scoreScaled,
        reportedSeconds: whole.reportedSeconds,
        // Once met, the rule stays met for the attempt: a later commit of a SCO revisited
        // does not take the module's credit back.
        ...(whole.satisfied && !attempt.satisfiedAt ? { satisfiedAt: now() } : {}),
      };
      await repo.updateAttempt(attempt.id, report);
      return { attempt: { ...attempt, ...report }, states };
    });
  }

  /**
   * The learner's open attempt, locked; opened first when there is none, unless the content
   * names the attempt it was launched in (`launched`): content still open in a tab when an
   * administrator reset that attempt, or the module's package was replaced, must not carry
   * its data into a new one.
   */
  async function lockedAttempt(
    repo: ReturnType<typeof createPackageRunsRepository>,
    key: ModuleRequest & { packageId: string },
    launched: string | undefined,
  ) {
    const open = await repo.lockOpen(key);
    // An attempt at a package the module no longer plays is ended by `open` below.
    const current = open?.packageId === key.packageId ? open : undefined;
    if (launched !== undefined && current?.id !== launched) throw attemptEnded();
    if (current) return current;
    await repo.open(key);
    return (await repo.lockOpen(key))!;
  }

  /** An item's address in the package: a SCORM item's file, a cmi5 AU's file or URL. */
  const itemPath = (run: PackageRun, id: string) => {
    const item = run.items.find((i) => i.id === id) as unknown as {
      launch: { file: string; query: string } | { url: string };
    };
    return "url" in item.launch ? item.launch.url : launchPathOf(item as unknown as ScormItem);
  };

  return {
    /**
     * An administrator's look at a module's package, published or not: each item's address
     * and a SCO's starting data model, as a learner's first launch would have them. Nothing
     * is recorded: no attempt, no commit, no seat time.
     */
    async preview(input: {
      courseId: string;
      moduleId: string;
      viewer: Learner;
    }): Promise<PackagePreview> {
      const course = (await deps.courses.findMany([input.courseId])).get(input.courseId);
      if (!course) throw courseNotFound();
      const module = course.modules.find((m) => m.id === input.moduleId);
      if (!module) throw moduleNotInCourse();
      if (module.kind === "video") throw notAPackage();
      const run = await packageOf(course.id, module.id);
      return {
        standard: run.standard,
        contentBase: await deps.links.packageBase(run.id),
        runtimeUrl: isScorm(run.standard) ? runtimeUrl : null,
        items: run.items.map((i) => ({
          id: i.id,
          title: i.title,
          launchable: i.isVisible !== false,
          launchPath: itemPath(run, i.id),
          cmi: isScorm(run.standard)
            ? itemLaunch(run, findItem(run, i.id), undefined, input.viewer).cmi
            : {},
        })),
      };
    },

    /**
     * Opens (or returns) the learner's attempt at the module's package and answers what
     * the player needs: the items, the one to resume, where the content is served and, for
     * SCORM, the item's starting data model.
     */
    async launch(input: ModuleRequest & { learner: Learner }): Promise<PackageLaunch> {
      const { course, completed, run, key } = await access(input);
      const repo = createPackageRunsRepository(db);
      let attempt = await repo.open(key);
      let states = await repo.itemStates(attempt.id);
      const byId = new Map(states.map((s) => [s.itemId, s]));
      const visible = run.items.filter((i) => i.isVisible !== false);
      const last = [...states].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
      const resumeId =
        last?.itemId ??
        (visible.find((i) => !itemSatisfied(byId.get(i.id))) ?? visible[0] ?? run.items[0])!.id;
      const resumeItem = findItem(run, resumeId);
      // The launch opens the item: an asset is then seen.
      if (isScorm(run.standard) && resumeItem.scormType === "asset") {
        ({ attempt, states } = await record(key, run, {
          id: resumeId,
          data: null,
          outcome: ASSET_OPENED,
        }));
      }
      const moduleCompleted = await completeIfDue(input, course, attempt, completed);
      return {
        attemptId: attempt.id,
        standard: run.standard,
        items: run.items.map((i) => ({
          id: i.id,
          title: i.title,
          launchable: i.isVisible !== false,
        })),
        resume: { itemId: resumeId },
        contentBase: await deps.links.packageBase(run.id),
        runtimeUrl: isScorm(run.standard) ? runtimeUrl : null,
        status: statusOf(course, run, attempt, states, moduleCompleted),
        item: isScorm(run.standard)
          ? itemLaunch(run, resumeItem, byId.get(resumeId), input.learner)
          : null,
      };
    },

    /**
     * One SCORM item's launch: its address in the package and the data model it starts
     * with (where it was, when it committed before). An asset, which never talks to the run
     * time, counts as completed once opened.
     */
    async item(
      input: ModuleRequest & { itemId: string; learner: Learner },
    ): Promise<ScormItemAnswer> {
      const { course, completed, run, key } = await access(input);
      if (!isScorm(run.standard)) throw itemNotFound();
      const item = findItem(run, input.itemId);
      const { attempt, states } =
        item.scormType === "asset"
          ? await record(key, run, { id: item.id, data: null, outcome: ASSET_OPENED })
          : await (async () => {
              const repo = createPackageRunsRepository(db);
              const open = await repo.open(key);
              return { attempt: open, states: await repo.itemStates(open.id) };
            })();
      const moduleCompleted = await completeIfDue(input, course, attempt, completed);
      return {
        ...itemLaunch(
          run,
          item,
          states.find((s) => s.itemId === item.id),
          input.learner,
        ),
        status: statusOf(course, run, attempt, states, moduleCompleted),
      };
    },

    /**
     * Keeps what a SCO committed (its data model, checked against its SCORM version) and
     * what it says of the item and the whole; completes the module when the package now
     * meets its rule and the course's seat time.
     */
    async commit(
      input: ModuleRequest & { itemId: string; body: ScormCommitBody },
    ): Promise<PackageAttemptStatus> {
      const { course, completed, run, key } = await access(input);
      if (!isScorm(run.standard)) throw itemNotFound();
      const item = findItem(run, input.itemId);
      const parsed = parseScormData(run.standard, input.body.cmi);
      if (!parsed.ok) throw dataInvalid(parsed.fault);
      const outcome = readScormItem(
        run.standard,
        parsed.cmi,
        input.body.finish === true,
        rulesOf(item),
      );
      const { attempt, states } = await record(
        key,
        run,
        { id: item.id, data: parsed.cmi, outcome },
        input.body.attemptId,
      );
      const moduleCompleted = await completeIfDue(input, course, attempt, completed);
      return statusOf(course, run, attempt, states, moduleCompleted);
    },

    /**
     * A beat of the player while the content is open: the time since the attempt's last
     * beat counts as seat time when the page is visible, up to 30 seconds a beat; a hidden
     * page's time never counts. Completes the module when the seat time now reaches the
     * course's minimum for a package that already met its rule.
     */
    async seat(
      input: ModuleRequest & { visible: boolean; attemptId?: string },
    ): Promise<PackageAttemptStatus> {
      const { course, completed, run, key } = await access(input);
      const { attempt, states } = await db.transaction(async (tx) => {
        const repo = createPackageRunsRepository(tx);
        const locked = await lockedAttempt(repo, key, input.attemptId);
        const at = now();
        const since = locked.lastSeatAt
          ? Math.max(0, (at.getTime() - locked.lastSeatAt.getTime()) / 1000)
          : 0;
        const credit = input.visible ? Math.min(since, MAX_SEAT_CREDIT_SECONDS) : 0;
        const lastSeatAt = locked.lastSeatAt && locked.lastSeatAt > at ? locked.lastSeatAt : at;
        const seat = { seatSeconds: locked.seatSeconds + credit, lastSeatAt };
        await repo.recordSeat(locked.id, seat);
        return { attempt: { ...locked, ...seat }, states: await repo.itemStates(locked.id) };
      });
      const moduleCompleted = await completeIfDue(input, course, attempt, completed);
      return statusOf(course, run, attempt, states, moduleCompleted);
    },
  };
}

export type PackageRunsService = ReturnType<typeof createPackageRunsService>;
