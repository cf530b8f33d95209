import type { PackageCompletion, PackageSuccess } from "./package-runs.table";

/** What the package reported of one item (a SCO, an asset, an AU). */
export interface ItemOutcome {
  completion: PackageCompletion;
  success: PackageSuccess;
  scoreScaled: number | null;
  reportedSeconds: number;
}

/**
 * The module's rule for one item: completed or passed. A passed item counts even when it
 * did not say it completed; a failed one never counts, even completed (a learner who failed
 * the test has not earned the module's credit).
 */
export const itemSatisfied = (item: ItemOutcome | undefined): boolean =>
  item !== undefined &&
  (item.success === "passed" || (item.completion === "completed" && item.success !== "failed"));

/**
 * The whole package from its items: satisfied when every required item is (a single-SCO
 * package: that SCO; a multi-SCO one: every SCO). SCORM 2004 sequencing's rollup rules
 * beyond this are not evaluated. Success is failed when any item failed, passed when the
 * package is satisfied and some item passed. The score is the mean of the items' scaled scores; the
 * time reported is the sum of the items'.
 */
export function rollUp(required: readonly string[], items: ReadonlyMap<string, ItemOutcome>) {
  const outcomes = required.map((id) => items.get(id));
  const satisfied = required.length > 0 && outcomes.every(itemSatisfied);
  const completion: PackageCompletion = outcomes.every(
    (o) => o?.completion === "completed" || o?.success === "passed",
  )
    ? "completed"
    : [...items.values()].some((o) => o.completion !== "unknown" || o.success !== "unknown")
      ? "incomplete"
      : "unknown";
  // Passed once every item is satisfied and those that judge success passed.
  const success: PackageSuccess = outcomes.some((o) => o?.success === "failed")
    ? "failed"
    : satisfied && outcomes.some((o) => o?.success === "passed")
      ? "passed"
      : "unknown";
  const scores = outcomes.flatMap((o) => (o?.scoreScaled == null ? [] : [o.scoreScaled]));
  const scoreScaled = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
  const reportedSeconds = [...items.values()].reduce((sum, o) => sum + o.reportedSeconds, 0);
  return { satisfied, completion, success, scoreScaled, reportedSeconds };
}
