import type { LearnerSummary } from "@contract";
import {
  BookPlusIcon,
  CalendarIcon,
  MailIcon,
  PhoneIcon,
  ScrollTextIcon,
  ShieldCheckIcon,
  ShieldOffIcon,
  Trash2Icon,
  XIcon,
} from "lucide-react";
import { Link } from "react-router";
import { EmailText } from "../../../components/email-text";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Checkbox } from "../../../components/ui/checkbox";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { UserAvatar } from "../../../components/user-avatar";
import { getErrorMessage } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { cn } from "../../../lib/utils";
import { useDeleteLearner } from "../api/delete-learner";
import { useRemoveEnrollment } from "../api/remove-enrollment";
import { useToggleLearnerStatus } from "../api/toggle-learner-status";
import { LEARNER_CONFIRMS, LEARNER_TOASTS } from "../messages";
import { LearnerStatusBadge } from "./learner-status-badge";
import { LearnerWatchDetails } from "./learner-watch-details";

type LearnerCardProps = {
  learner: LearnerSummary;
  onEnroll: (learner: LearnerSummary) => void;
  /** Whether the learner is selected for an action on several learners. */
  selected: boolean;
  onSelectedChange: (selected: boolean) => void;
};

/** One learner on the Learners page, with every element SPEC section 2 lists. */
export function LearnerCard({ learner, onEnroll, selected, onSelectedChange }: LearnerCardProps) {
  const dates = useDates();
  const toggleStatus = useToggleLearnerStatus();
  const deleteLearner = useDeleteLearner();
  const removeEnrollment = useRemoveEnrollment();
  const [confirm, confirmDialog] = useConfirm();
  const restricted = learner.status === "restricted";
  const headingId = `learner-${learner.id}-name`;

  async function onToggleStatus() {
    try {
      const { message, status } = await toggleStatus.mutateAsync(learner);
      toast({
        title: status === "restricted" ? "Learner restricted" : "Learner unrestricted",
        description: message,
      });
    } catch {
      toast({
        variant: "destructive",
        title: LEARNER_TOASTS.error,
        description: LEARNER_TOASTS.statusFailedDescription,
      });
    }
  }

  async function onDelete() {
    const confirmed = await confirm({
      title: "Delete learner?",
      message: LEARNER_CONFIRMS.deleteLearner(learner.name),
      confirmLabel: "Delete learner",
    });
    if (!confirmed) return;
    try {
      await deleteLearner.mutateAsync(learner.id);
      toast({ title: LEARNER_TOASTS.deleted, description: `${learner.name} has been removed.` });
    } catch {
      toast({
        variant: "destructive",
        title: LEARNER_TOASTS.error,
        description: LEARNER_TOASTS.deleteFailedDescription,
      });
    }
  }

  async function onRemoveEnrollment(enrollmentId: string, courseTitle: string) {
    const confirmed = await confirm({
      title: "Remove enrollment?",
      message: LEARNER_CONFIRMS.removeEnrollment(learner.name, courseTitle),
      confirmLabel: "Remove enrollment",
    });
    if (!confirmed) return;
    try {
      await removeEnrollment.mutateAsync({ learner, enrollmentId });
      toast({
        title: "Enrollment removed",
        description: `${learner.name} is no longer enrolled in ${courseTitle}.`,
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: LEARNER_TOASTS.error,
        description: getErrorMessage(error) ?? "The enrollment could not be removed.",
      });
    }
  }

  return (
    <article
      aria-labelledby={headingId}
      data-testid="learner-card"
      className="rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 [contain-intrinsic-size:auto_13rem] [content-visibility:auto] sm:p-5"
    >
      <div className="flex flex-col gap-4 md:flex-row md:items-start md:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <Checkbox
            checked={selected}
            onCheckedChange={(checked) => onSelectedChange(checked === true)}
            aria-label={`Select ${learner.name}`}
            className="mt-3"
          />
          <UserAvatar
            name={learner.name}
            className={cn("size-10 text-sm", restricted && "bg-zinc-100 text-zinc-600")}
          />
          <div className="grid min-w-0 gap-1.5">
            <div className="flex flex-wrap items-center gap-2">
              <h3 id={headingId} className="truncate text-[15px] font-semibold text-zinc-950">
                {learner.name}
              </h3>
              <LearnerStatusBadge
                status={learner.status}
                passwordSetup={learner.passwordSetup}
                createdBySignOn={learner.createdBySignOn}
              />
              {learner.enrolledCount > 0 ? (
                <Badge variant="default" data-testid="learner-progress-badge">
                  {learner.averageProgress}% complete
                </Badge>
              ) : (
                <Badge variant="secondary" data-testid="learner-progress-badge">
                  No courses
                </Badge>
              )}
            </div>
            <ul className="flex flex-wrap gap-x-4 gap-y-1 text-[13px] text-zinc-600">
              <li className="flex min-w-0 items-center gap-1.5">
                <MailIcon className="size-3.5 shrink-0 text-zinc-500" aria-hidden="true" />
                <a
                  href={`mailto:${learner.email}`}
                  className="min-w-0 hover:text-indigo-700 hover:underline focus-visible:rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                >
                  <EmailText email={learner.email} />
                </a>
              </li>
              {learner.phone ? (
                <li className="flex items-center gap-1.5">
                  <PhoneIcon className="size-3.5 shrink-0 text-zinc-500" aria-hidden="true" />
                  <span>{learner.phone}</span>
                </li>
              ) : null}
              <li className="flex items-center gap-1.5">
                <CalendarIcon className="size-3.5 shrink-0 text-zinc-500" aria-hidden="true" />
                <span>Joined {dates.date(learner.createdAt)}</span>
              </li>
            </ul>
          </div>
        </div>
        <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center md:shrink-0 md:justify-end">
          {/* The learner's transcript, certificates and audit export. */}
          <Button asChild variant="outline" size="sm">
            <Link
              to={`/admin/learners/${encodeURIComponent(learner.id)}`}
              aria-label={`Transcript of ${learner.name}`}
            >
              <ScrollTextIcon aria-hidden="true" />
              Transcript
            </Link>
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => onEnroll(learner)}
            aria-label="Enroll in courses"
          >
            <BookPlusIcon aria-hidden="true" />
            {/* One flex item, so the words keep a plain space rather than the icon's gap. */}
            <span>
              Enroll<span className="hidden sm:inline"> in courses</span>
            </span>
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void onToggleStatus()}
            disabled={toggleStatus.isPending}
            aria-label={`${restricted ? "Unrestrict" : "Restrict"} ${learner.name}`}
          >
            {toggleStatus.isPending ? (
              <Spinner />
            ) : restricted ? (
              <ShieldCheckIcon aria-hidden="true" />
            ) : (
              <ShieldOffIcon aria-hidden="true" />
            )}
            {restricted ? "Unrestrict" : "Restrict"}
          </Button>
          <Button
            variant="outline"
            size="sm"
            className="text-red-700 hover:border-red-300 hover:bg-red-50 hover:text-red-800"
            onClick={() => void onDelete()}
            disabled={deleteLearner.isPending}
            aria-label={`Delete ${learner.name}`}
          >
            <Trash2Icon aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>

      <div className="mt-4 grid gap-4 border-t border-zinc-100 pt-4 md:grid-cols-[auto_minmax(0,1fr)] md:gap-8">
        <dl className="grid grid-cols-3 gap-2 md:flex md:gap-6">
          <Count label="Enrolled" value={learner.enrolledCount} />
          <Count label="In Progress" value={learner.inProgressCount} />
          <Count label="Completed" value={learner.completedCount} />
        </dl>
        {learner.courses.length > 0 ? (
          <ul className="flex flex-wrap content-start gap-2" aria-label="Enrolled courses">
            {learner.courses.map((course) => (
              <li
                key={course.enrollmentId}
                className={cn(
                  "inline-flex max-w-full items-center gap-1.5 rounded-full border py-0.5 pr-1 pl-2.5 text-xs font-medium",
                  course.isCompleted
                    ? "border-emerald-200 bg-emerald-50 text-emerald-900"
                    : course.progress > 0
                      ? "border-indigo-200 bg-indigo-50 text-indigo-900"
                      : "border-zinc-200 bg-zinc-50 text-zinc-800",
                )}
              >
                <span className="truncate">{course.title}</span>
                <span className="shrink-0 tabular-nums opacity-80">{course.progress}%</span>
                <button
                  type="button"
                  onClick={() => void onRemoveEnrollment(course.enrollmentId, course.title)}
                  aria-label={`Remove ${learner.name} from ${course.title}`}
                  className="rounded-full p-0.5 opacity-70 transition-opacity hover:bg-black/5 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
                >
                  <XIcon className="size-3" aria-hidden="true" />
                </button>
              </li>
            ))}
          </ul>
        ) : (
          <p className="self-center text-sm text-zinc-500">Not enrolled in any course yet.</p>
        )}
      </div>
      <LearnerWatchDetails learner={learner} />
      {confirmDialog}
    </article>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="grid grid-cols-1 gap-0.5 rounded-lg bg-zinc-50 px-3 py-2 md:bg-transparent md:p-0">
      <dt className="text-xs text-zinc-600">{label}</dt>
      <dd className="text-lg leading-tight font-semibold text-zinc-950 tabular-nums">{value}</dd>
    </div>
  );
}
