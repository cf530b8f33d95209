import { UserPlusIcon, UsersIcon } from "lucide-react";
import { RecentItemsCard } from "../../../components/recent-items-card";
import { Button } from "../../../components/ui/button";
import { UserAvatar } from "../../../components/user-avatar";
import { useDates } from "../../../lib/dates";
import { useRecentLearners } from "../api/get-learners";
import { LearnerStatusBadge } from "./learner-status-badge";

/** Dashboard 'Recent Learners': the newest 3, with status and joined date (SPEC section 2). */
export function RecentLearnersCard({ onAddLearner }: { onAddLearner: () => void }) {
  const dates = useDates();
  const query = useRecentLearners();
  const learners = query.data;

  return (
    <RecentItemsCard
      title="Recent Learners"
      titleId="recent-learners-title"
      viewAllTo="/admin/learners"
      query={query}
      failure="Learners could not be loaded."
      skeleton={{ media: "size-10 rounded-full", lines: ["w-1/2", "w-2/3"] }}
      empty={
        learners?.length === 0
          ? {
              icon: <UsersIcon className="size-5" aria-hidden="true" />,
              text: "No learners yet",
              action: (
                <Button size="sm" variant="outline" onClick={onAddLearner}>
                  <UserPlusIcon aria-hidden="true" />
                  Add Learner
                </Button>
              ),
            }
          : undefined
      }
    >
      {learners?.map((learner) => (
        <li
          key={learner.id}
          data-testid="recent-learner"
          className="flex items-center gap-3 rounded-xl p-2.5 sm:p-3"
        >
          <UserAvatar name={learner.name} className="size-10" />
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
    </RecentItemsCard>
  );
}
