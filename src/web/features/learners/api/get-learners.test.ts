import type { LearnerSummary } from "@contract";
import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import {
  getRecentLearnersQueryOptions,
  type LearnersPage,
  learnersListQueryKey,
  patchCachedLearner,
} from "./get-learners";

function learner(id: string): LearnerSummary {
  return {
    id,
    name: `Learner ${id}`,
    email: `${id}@example.com`,
    phone: null,
    role: "learner",
    status: "active",
    createdAt: "2026-01-01T00:00:00.000Z",
    firebaseUid: null,
    isRegisteredByAdmin: true,
    passwordSetup: false,
    enrolledCount: 0,
    inProgressCount: 0,
    completedCount: 0,
    averageProgress: 0,
    courses: [],
    createdBySignOn: null,
  };
}

describe("patchCachedLearner", () => {
  it("updates or removes one learner in every cached page and the recent list", () => {
    const client = new QueryClient();
    const pages: InfiniteData<LearnersPage, string | null> = {
      pages: [
        { items: [learner("a"), learner("b")], nextCursor: "c1" },
        { items: [learner("c")], nextCursor: null },
      ],
      pageParams: [null, "c1"],
    };
    client.setQueryData(learnersListQueryKey(""), pages);
    client.setQueryData(learnersListQueryKey("learner"), pages);
    client.setQueryData(getRecentLearnersQueryOptions().queryKey, [learner("c"), learner("b")]);

    patchCachedLearner(client, "b", (item) => ({ ...item, status: "restricted" }));
    for (const q of ["", "learner"]) {
      const data = client.getQueryData<typeof pages>(learnersListQueryKey(q));
      expect(data?.pages[0]?.items.map((i) => i.status)).toEqual(["active", "restricted"]);
    }
    expect(
      client.getQueryData<LearnerSummary[]>(getRecentLearnersQueryOptions().queryKey)?.[1]?.status,
    ).toBe("restricted");

    patchCachedLearner(client, "c", () => null);
    const data = client.getQueryData<typeof pages>(learnersListQueryKey(""));
    expect(data?.pages.map((p) => p.items.map((i) => i.id))).toEqual([["a", "b"], []]);
    expect(
      client
        .getQueryData<LearnerSummary[]>(getRecentLearnersQueryOptions().queryKey)
        ?.map((i) => i.id),
    ).toEqual(["b"]);
  });
});
