import type { Cmi5Au } from "../../catalogue";

/** What the AUs of a registration reported, by AU id. */
export interface AuReport {
  completed: boolean;
  passed: boolean;
  waived: boolean;
}

/** Whether an AU met its moveOn (cmi5 13.1.4), or was waived. */
export function auSatisfied(au: Pick<Cmi5Au, "moveOn">, report: AuReport | undefined): boolean {
  if (au.moveOn === "NotApplicable") return true;
  if (!report) return false;
  if (report.waived) return true;
  switch (au.moveOn) {
    case "Completed":
      return report.completed;
    case "Passed":
      return report.passed;
    case "CompletedAndPassed":
      return report.completed && report.passed;
    case "CompletedOrPassed":
      return report.completed || report.passed;
  }
}

/** A block or the course that the LMS says is satisfied (cmi5 9.3.9). */
export interface SatisfiedNode {
  kind: "block" | "course";
  /** The block's index among the course structure's blocks; -1 for the course. */
  index: number;
  /** The publisher's id from cmi5.xml. */
  publisherId: string;
}

/**
 * The blocks and the course whose every AU is satisfied, innermost blocks first and the
 * course last: the order the LMS writes its satisfied statements in.
 */
export function satisfiedNodes(
  structure: { courseId: string; blocks: { id: string }[] },
  aus: Pick<Cmi5Au, "id" | "moveOn" | "blocks">[],
  reports: Map<string, AuReport>,
): SatisfiedNode[] {
  const done = new Set(aus.filter((au) => auSatisfied(au, reports.get(au.id))).map((au) => au.id));
  const depth = (blockId: string) =>
    Math.max(
      0,
      ...aus.filter((au) => au.blocks.includes(blockId)).map((au) => au.blocks.indexOf(blockId)),
    );
  const blocks = structure.blocks
    .map((block, index) => ({ block, index }))
    .filter(({ block }) => {
      const inside = aus.filter((au) => au.blocks.includes(block.id));
      return inside.length > 0 && inside.every((au) => done.has(au.id));
    })
    .sort((a, b) => depth(b.block.id) - depth(a.block.id));
  const nodes: SatisfiedNode[] = blocks.map(({ block, index }) => ({
    kind: "block",
    index,
    publisherId: block.id,
  }));
  if (aus.every((au) => done.has(au.id))) {
    nodes.push({ kind: "course", index: -1, publisherId: structure.courseId });
  }
  return nodes;
}
