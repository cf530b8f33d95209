import { type EnrollmentWithRelations, enrollmentWithRelationsSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";

export const myEnrollmentsQueryKey = (userId: string) => ["/api/enrollments/user", userId] as const;

/** GET /api/enrollments/user/:userId: the learner's enrollments with course and user. */
async function getMyEnrollments(userId: string): Promise<EnrollmentWithRelations[]> {
  return apiJson(
    z.array(enrollmentWithRelationsSchema),
    "GET",
    `/api/enrollments/user/${encodeURIComponent(userId)}`,
  );
}

const getMyEnrollmentsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: myEnrollmentsQueryKey(userId),
    queryFn: () => getMyEnrollments(userId),
  });

export function useMyEnrollments(userId: string) {
  return useQuery(getMyEnrollmentsQueryOptions(userId));
}
