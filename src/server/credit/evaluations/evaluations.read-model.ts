import type { Executor } from "../../db/client";
import { createEvaluationsRepository } from "./evaluations.repository";
import type { CourseEvaluationRow } from "./evaluations.table";

/** Whether the course asks for its evaluation, and its form; undefined for a plain course. */
export type EvaluationSettings = CourseEvaluationRow | undefined;

/** The evaluation step's settings of a course, and what the activity page shows of them. */
export const loadEvaluationSettings = (db: Executor, courseId: string) =>
  createEvaluationsRepository(db).settingsOf(courseId);
