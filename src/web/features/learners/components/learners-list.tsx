import type { Course, LearnerSummary } from "@contract";
import { BookPlusIcon, SearchXIcon, UserPlusIcon, UsersIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Checkbox } from "../../../components/ui/checkbox";
import { EmptyState } from "../../../components/ui/empty-state";
import { Label } from "../../../components/ui/label";
import { SearchField } from "../../../components/ui/search-field";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { loadFailureHint } from "../../../lib/api-client";
import { useLearners } from "../api/get-learners";
import { BulkEnrollDialog } from "./bulk-enroll-dialog";
import { EnrollCoursesDialog } from "./enroll-courses-dialog";
import { LearnerCard } from "./learner-card";

const SEARCH_DEBOUNCE_MS = 300;

/** `value`, once it has stopped changing for `delay` ms. */
function useDebouncedValue<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

type LearnersListProps = {
  onAddLearner: () => void;
  /** Published courses, for the Enroll in courses dialog. */
  publishedCourses: Course[] | undefined;
};

/**
 * The Learners page list: server-side search on name or email and keyset pages of 25,
 * loaded with 'Load more' or automatically as the end of the list scrolls into view.
 */
export function LearnersList({ onAddLearner, publishedCourses }: LearnersListProps) {
  const [search, setSearch] = useState("");
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const {
    data,
    isPending,
    isError,
    error,
    isPlaceholderData,
    refetch,
    fetchNextPage,
    hasNextPage,
    isFetchingNextPage,
  } = useLearners(q);
  const [enrolling, setEnrolling] = useState<LearnerSummary | null>(null);
  const learners = data?.pages.flatMap((page) => page.items) ?? [];
  // Selected learners are those shown: a new search leaves the others out of the action.
  const [selectedIds, setSelectedIds] = useState<ReadonlySet<string>>(new Set());
  const [bulkOpen, setBulkOpen] = useState(false);
  const selected = learners.filter((learner) => selectedIds.has(learner.id));
  const allSelected = learners.length > 0 && selected.length === learners.length;
  const select = (ids: string[], on: boolean) =>
    setSelectedIds((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  // Infinite scroll: the sentinel under the list pulls in the next page. The observer is
  // made anew for every settled list (`data`), because it reports only changes: one made
  // while a new search still showed the previous results (placeholder data, which can't
  // be extended) would never fire again for a sentinel that stayed in view.
  const sentinel = useRef<HTMLDivElement>(null);
  const canLoadMore = hasNextPage && !isPlaceholderData && !isFetchingNextPage;
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !canLoadMore || !data) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [canLoadMore, data, fetchNextPage]);

  const searching = search.trim() !== q;

  return (
    <div className="grid grid-cols-1 gap-5">
      <SearchField
        value={search}
        onChange={setSearch}
        label="Search learners by name or email"
        placeholder="Search by name or email"
        searching={searching}
        className="max-w-md"
      />

      {isPending ? (
        <LearnersSkeleton />
      ) : isError ? (
        <EmptyState
          icon={<UsersIcon />}
          title="Learners could not be loaded"
          description={loadFailureHint(error, "Check your connection and try again.")}
          action={
            <Button variant="outline" onClick={() => void refetch()}>
              Try again
            </Button>
          }
        />
      ) : learners.length === 0 ? (
        q ? (
          <EmptyState
            icon={<SearchXIcon />}
            title="No learners found matching your search"
            description={`Nobody's name or email contains “${q}”.`}
            action={
              <Button variant="outline" onClick={() => setSearch("")}>
                Clear search
              </Button>
            }
          />
        ) : (
          <EmptyState
            icon={<UsersIcon />}
            title="No learners yet"
            description="Add a learner's email to invite them. You can enroll them in courses at the same time."
            action={
              <Button onClick={onAddLearner}>
                <UserPlusIcon aria-hidden="true" />
                Add Learner
              </Button>
            }
          />
        )
      ) : (
        <section aria-label="Learners" className="grid grid-cols-1 gap-3">
          <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-zinc-200 bg-white px-4 py-2.5">
            <div className="flex items-center gap-3">
              <Checkbox
                id="select-all-learners"
                checked={allSelected ? true : selected.length > 0 ? "indeterminate" : false}
                onCheckedChange={() =>
                  select(
                    learners.map((learner) => learner.id),
                    !allSelected,
                  )
                }
              />
              <Label htmlFor="select-all-learners" className="text-sm font-normal text-zinc-700">
                {selected.length
                  ? `${selected.length} of ${learners.length} selected`
                  : "Select all shown"}
              </Label>
            </div>
            <Button
              variant="outline"
              size="sm"
              disabled={selected.length === 0}
              onClick={() => setBulkOpen(true)}
            >
              <BookPlusIcon aria-hidden="true" />
              Enroll in course
            </Button>
          </div>
          <ul className="grid grid-cols-1 gap-3">
            {learners.map((learner) => (
              <li key={learner.id}>
                <LearnerCard
                  learner={learner}
                  onEnroll={setEnrolling}
                  selected={selectedIds.has(learner.id)}
                  onSelectedChange={(on) => select([learner.id], on)}
                />
              </li>
            ))}
          </ul>
          <div ref={sentinel} className="flex min-h-12 items-center justify-center">
            {hasNextPage ? (
              <Button
                variant="outline"
                onClick={() => void fetchNextPage()}
                disabled={!canLoadMore}
              >
                {isFetchingNextPage ? <Spinner /> : null}
                {isFetchingNextPage ? "Loading..." : "Load more"}
              </Button>
            ) : (
              <p className="text-sm text-zinc-500">
                {learners.length === 1 ? "1 learner" : `All ${learners.length} learners`} shown
              </p>
            )}
          </div>
        </section>
      )}

      <BulkEnrollDialog
        open={bulkOpen}
        onOpenChange={setBulkOpen}
        learners={selected}
        courses={publishedCourses}
        onEnrolled={() => setSelectedIds(new Set())}
      />
      <EnrollCoursesDialog
        learner={enrolling}
        onClose={() => setEnrolling(null)}
        courses={publishedCourses}
      />
    </div>
  );
}

function LearnersSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-3">
      <p role="status" className="sr-only">
        Loading learners...
      </p>
      {[0, 1, 2].map((i) => (
        <div
          key={i}
          aria-hidden="true"
          className="grid grid-cols-1 gap-4 rounded-2xl border border-zinc-200 bg-white p-5"
        >
          <div className="flex items-center gap-3">
            <Skeleton className="size-10 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-48" />
              <Skeleton className="h-3 w-72 max-w-full" />
            </div>
          </div>
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  );
}
