import type { Answer } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { apiRequest } from "../../../lib/api-client";

type SaveExamAnswersInput = { attemptId: string; answers: Answer[] };

/**
 * PUT /api/exam-attempts/:id/answers: keeps the answers so far on the server, so a reload or
 * a lost connection costs nothing. Past the deadline the server grades the attempt as saved
 * and answers 409.
 */
async function saveExamAnswers({ attemptId, answers }: SaveExamAnswersInput) {
  await apiRequest("PUT", `/api/exam-attempts/${encodeURIComponent(attemptId)}/answers`, {
    answers,
  });
}

export function useSaveExamAnswers() {
  return useMutation({ mutationFn: saveExamAnswers });
}
