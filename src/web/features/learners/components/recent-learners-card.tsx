import { ArrowRightIcon, UserPlusIcon, UsersIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { Card, CardHeader, CardTitle } from "../../../components/ui/card";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { initials } from "../../../lib/format";
import { useRecentLearners } from "../api/get-learners";
import { LearnerStatusBadge } from "./learner-status-badge";

/** Dashboard 'Recent Learners': the newest 3, with status and joined date (SPEC section 2). */
export function RecentLearnersCard({ onAddLearner }: { onAddLearner: () => void }) {
  const dates = useDates();
  const { data: learners, isPending, isError, error } = useRecentLearners();

  return (
    <Card className="flex flex-col">
      <CardHeader className="flex flex-row items-center justify-between gap-3 pb-1 sm:pb-2">
        <CardTitle id="recent-learners-title">Recent Learners</CardTitle>
        <Button asChild variant="ghost" size="sm" className="-mr-2 text-indigo-700">
          <Link to="/admin/learners">
            View all
            <ArrowRightIcon aria-hidden="true" />
          </Link>
        </Button>
      </CardHeader>
      <div className="flex-1 px-2 pb-3 sm:px-3">
        {isPending ? (
          <ul aria-hidden="true" className="grid">
            {[0, 1, 2].map((i) => (
              <li key={i} className="flex items-center gap-3 p-3">
                <Skeleton className="size-10 rounded-full" />
                <div className="grid flex-1 gap-2">
                  <Skeleton className="h-4 w-1/2" />
                  <Skeleton className="h-3 w-2/3" />
                </div>
              </li>
            ))}
          </ul>
        ) : isError ? (
          <p className="px-3 py-8 text-center text-sm text-zinc-600">
            {loadFailureHint(error, "Learners could not be loaded.")}
          </p>
        ) : learners.length === 0 ? (
          <div className="flex flex-col items-center gap-3 px-3 py-8 text-center">
            <span className="flex size-10 items-center justify-center rounded-full bg-zinc-100 text-zinc-500">
              <UsersIcon className="size-5" aria-hidden="true" />
            </span>
            <p className="text-sm text-zinc-600">No learners yet</p>
            <Button size="sm" variant="outline" onClick={onAddLearner}>
              <UserPlusIcon aria-hidden="true" />
              Add Learner
            </Button>
          </div>
        ) : (
          <ul aria-labelledby="recent-learners-title" className="grid">
            {learners.map((learner) => (
              <li
                key={learner.id}
                data-testid="recent-learner"
                className="flex items-center gap-3 rounded-xl p-2.5 sm:p-3"
              >
                <span
                  aria-hidden="true"
                  className="flex size-10 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-[13px] font-semibold text-indigo-800"
                >
                  {initials(learner.name)}
                </span>
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <p className="truncate text-sm font-medium text-zinc-900">{learner.name}</p>
                  <p className="truncate text-xs text-zinc-600">{learner.email}</p>
                  <p className="text-xs text-zinc-600 sm:hidden">
                    Joined {dates.date(learner.createdAt)}
                  </p>
                </div>
                <div className="grid shrink-0 justify-items-end gap-1">
                  <div className="flex flex-col items-end gap-1 sm:flex-row sm:flex-wrap sm:justify-end">
                    <LearnerStatusBadge
                      status={learner.status}
                      passwordSetup={learner.passwordSetup}
                      createdBySignOn={learner.createdBySignOn}
                    />
                  </div>
                  <p className="hidden text-xs whitespace-nowrap text-zinc-600 sm:block">
                    Joined {dates.date(learner.createdAt)}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
