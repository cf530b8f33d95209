import type { ExamSettingsBody } from "../../../contract";
import type { Executor } from "../../db/client";
import { createAssessmentsRepository } from "./assessments.repository";
import type { QuestionRow } from "./assessments.table";
import { settingsOrDefault } from "./questions.service";

/** A course's assessment settings as the exam and review steps decide by them. */
export interface AssessmentSettings {
  exam: ExamSettingsBody;
  /** The final exam's question pool, each attempt's version drawn from it (empty when off). */
  finalPool: QuestionRow[];
  /** The review questions that count, by module: every one, when the course requires review. */
  review: { all: string[]; byModule: Map<string, string[]> };
}

/** One loader for both steps, so the course's credit context reads the settings once. */
export async function loadAssessmentSettings(
  db: Executor,
  courseId: string,
): Promise<AssessmentSettings> {
  const repo = createAssessmentsRepository(db);
  const [row, questions] = await Promise.all([
    repo.settingsOf(courseId),
    repo.reviewQuestionIds(courseId),
  ]);
  const exam = settingsOrDefault(row);
  const finalPool = exam.enabled ? await repo.finalPool(courseId) : [];
  const counted = exam.reviewRequired ? questions : [];
  const byModule = new Map<string, string[]>();
  for (const q of counted) {
    if (q.moduleId) byModule.set(q.moduleId, [...(byModule.get(q.moduleId) ?? []), q.id]);
  }
  return { exam, finalPool, review: { all: counted.map((q) => q.id), byModule } };
}
