import { type User, userSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson, type Idempotent } from "../../../lib/api-client";
import { enrollInCourses } from "./enroll-in-courses";
import { invalidateLearnerData } from "./invalidate-learner-data";

type AddLearnerInput = {
  name: string;
  email: string;
  phone: string | null;
  courseIds: string[];
};

type AddLearnerResult = { user: User; failedCourseIds: string[] };

/**
 * SPEC section 7: POST /api/auth/register for the learner (the server mails the
 * invitation), then POST /api/enrollments once per selected course.
 */
async function addLearner(input: Idempotent<AddLearnerInput>): Promise<AddLearnerResult> {
  const user = await apiJson(
    userSchema,
    "POST",
    "/api/auth/register",
    {
      // A placeholder until the learner sets up their own sign-in (SPEC section 7).
      firebaseUid: `temp_${Date.now()}`,
      email: input.email,
      name: input.name,
      role: "learner",
      phone: input.phone,
      status: "active",
      isRegisteredByAdmin: true,
      passwordSetup: false,
    },
    { idempotencyKey: input.idempotencyKey },
  );
  const { failed } = await enrollInCourses({
    learner: user,
    courseIds: input.courseIds,
    idempotencyKey: input.idempotencyKey,
  });
  return { user, failedCourseIds: failed };
}

export function useAddLearner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addLearner,
    onSuccess: () => invalidateLearnerData(queryClient),
  });
}
