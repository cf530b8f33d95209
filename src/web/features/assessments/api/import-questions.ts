import { type QuestionImportResult, questionImportResultSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { invalidateQuestionBank } from "./invalidate-question-bank";

type ImportInput = { courseId: string; csv: string; dryRun: boolean };

/**
 * POST /api/courses/:id/questions/import: every row checked against the question rules; with
 * `dryRun` nothing is stored, so the administrator sees the preview first.
 */
async function importQuestions({
  courseId,
  csv,
  dryRun,
}: ImportInput): Promise<QuestionImportResult> {
  return apiJson(
    questionImportResultSchema,
    "POST",
    `/api/courses/${encodeURIComponent(courseId)}/questions/import`,
    { csv, dryRun },
  );
}

export function useImportQuestions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importQuestions,
    onSuccess: (_result, { courseId, dryRun }) =>
      dryRun ? undefined : invalidateQuestionBank(queryClient, courseId),
  });
}
