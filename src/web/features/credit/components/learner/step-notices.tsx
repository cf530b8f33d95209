import {
  type Activity,
  type Completion,
  type CompletionStepKey,
  stepFirstMessage,
} from "@contract";
import { ClipboardListIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { EmptyState } from "../../../../components/ui/empty-state";
import { blockingStep, coursePaths, creditOpen } from "../../credit-steps";
import { CompletionChecklist } from "./completion-checklist";
import { ExpiryBanner } from "./credit-page";

/** A screen for a step the course does not ask for. */
export function NotAsked({ courseId, message }: { courseId: string; message: string }) {
  return (
    <EmptyState
      titleAs="h2"
      icon={<ClipboardListIcon />}
      title={message}
      action={
        <Button asChild variant="outline">
          <Link to={coursePaths.player(courseId)}>Back to the course</Link>
        </Button>
      }
    />
  );
}

/** A step opened before an earlier required one is done: the checklist shows the way. */
function StepFirst({ step, courseId }: { step: CompletionStepKey; courseId: string }) {
  return (
    <div className="grid gap-6">
      <p
        data-testid="step-first"
        className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm font-medium text-amber-950"
      >
        {stepFirstMessage(step)}
      </p>
      <CompletionChecklist courseId={courseId} />
    </div>
  );
}

/** A step's form, or why it cannot be taken yet: an expired activity, or an earlier step. */
export function StepGate({
  activity,
  completion,
  step,
  children,
}: {
  activity: Activity;
  completion: Completion;
  step: CompletionStepKey;
  children: ReactNode;
}) {
  if (!creditOpen(activity)) {
    return (
      <ExpiryBanner
        courseExpired={activity.courseExpired}
        enrollmentExpired={activity.standing?.enrollmentExpired ?? false}
      />
    );
  }
  const blocking = blockingStep(completion, step);
  if (blocking) return <StepFirst step={blocking.key} courseId={activity.courseId} />;
  return children;
}
