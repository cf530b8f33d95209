import { type Question, questionSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";

export const questionsQueryKey = (courseId: string) =>
  ["/api/courses", courseId, "questions"] as const;

/** GET /api/courses/:id/questions: the course's question bank with answers (administrators). */
async function getQuestions(courseId: string): Promise<Question[]> {
  return apiJson(
    z.array(questionSchema),
    "GET",
    `/api/courses/${encodeURIComponent(courseId)}/questions`,
  );
}

const getQuestionsQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: questionsQueryKey(courseId), queryFn: () => getQuestions(courseId) });

export function useQuestions(courseId: string) {
  return useQuery(getQuestionsQueryOptions(courseId));
}
