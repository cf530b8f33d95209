import type { Executor } from "../../db/client";
import { type AttemptKey, createPackageRunsRepository } from "./package-runs.repository";
import type { PackageAttemptRow, PackageItemStateRow } from "./package-runs.table";

/** An attempt and an item's state as the run times read them. */
export type { PackageAttemptRow as PackageAttempt, PackageItemStateRow as PackageItemState };

type ItemReport = Partial<Omit<PackageItemStateRow, "attemptId" | "itemId" | "updatedAt">>;
type AttemptReport = Partial<
  Pick<
    PackageAttemptRow,
    "completion" | "success" | "scoreScaled" | "reportedSeconds" | "satisfiedAt"
  >
>;

/**
 * The learners' attempts at package modules, for the run times that write what the content
 * reports (cmi5's LMS, SCORM's run time). Every method runs in the caller's transaction, so a
 * report and the run time's own records commit together.
 */
export function createPackageAttempts() {
  const repo = (tx: Executor) => createPackageRunsRepository(tx);
  return {
    /** The learner's open attempt at the module's package, opened now when there is none. */
    open: (tx: Executor, key: AttemptKey & { packageId: string }) => repo(tx).open(key),
    /** The learner's open attempt at a module, if any. */
    findOpen: (tx: Executor, key: AttemptKey) => repo(tx).findOpen(key),
    /** The attempt a registration names, locked until the transaction ends. */
    lockByRegistration: (tx: Executor, registration: string) =>
      repo(tx).lockByRegistration(registration),
    /** The attempt a registration names. */
    findByRegistration: (tx: Executor, registration: string) =>
      repo(tx).findByRegistration(registration),
    /** What the content reported of each item of an attempt. */
    itemStates: (tx: Executor, attemptId: string) => repo(tx).itemStates(attemptId),
    /** Records what the content reported of one item. */
    reportItem: (tx: Executor, attemptId: string, itemId: string, report: ItemReport) =>
      repo(tx).saveItemState(attemptId, itemId, report),
    /** Records what the content reported of the whole attempt (satisfiedAt once it met its rule). */
    reportAttempt: (tx: Executor, attemptId: string, report: AttemptReport) =>
      repo(tx).updateAttempt(attemptId, report),
  };
}

export type PackageAttempts = ReturnType<typeof createPackageAttempts>;
