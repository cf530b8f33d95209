import { type AttestWithIdentifiersBody, CREDIT_MESSAGES, type CreditClaim } from "@contract";
import { BadgeCheckIcon } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { errorCodeOf } from "../../../../lib/api-client";
import { useDates } from "../../../../lib/dates";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { useSingleSubmit } from "../../../../lib/use-single-submit";
import { type AttestResult, useAttestActivity } from "../../api/attest-activity";
import { useActivity } from "../../api/get-activity";
import { useCourseCompletion } from "../../api/get-course-completion";
import { useIdentifiers } from "../../api/get-identifiers";
import { AttestationForm, type CourseReporting } from "./attestation-form";
import { CompletionChecklist } from "./completion-checklist";
import {
  CreditCourseNotFound,
  CreditPage,
  CreditPageError,
  CreditPageSkeleton,
  courseOutOfReach,
} from "./credit-page";
import { NotAsked, StepGate } from "./step-notices";

/**
 * The learner's attestation: the course's statement as the provider wrote it, affirmed, and
 * the credit claimed (on the course's steps when it awards partial credit). The statement is
 * sent back exactly, so a claim always names the words the learner read.
 */
export function AttestationPage({
  courseId,
  courseTitle,
  certificateAction,
  onAttested,
  reporting,
}: {
  courseId: string;
  courseTitle?: string;
  /** Where the course reports credit; absent when nothing is reported. */
  reporting?: CourseReporting | null;
  /** The certificate download once the course is complete (certificates feature). */
  certificateAction?: ReactNode;
  /** The attestation was recorded: it may have completed the course. */
  onAttested?: () => void;
}) {
  useDocumentTitle(courseTitle ? `Attestation · ${courseTitle}` : "Attestation");
  const activityQuery = useActivity(courseId);
  const completionQuery = useCourseCompletion(courseId);
  const identifiersQuery = useIdentifiers();
  // Held here, not in the form: the form goes away as soon as the attestation is recorded.
  const attest = useAttestActivity();
  const result: AttestResult | null = attest.data ?? null;

  // One key for the page's form: a double click or a retry records one attestation.
  const single = useSingleSubmit(courseId);

  function send(body: AttestWithIdentifiersBody) {
    void single((idempotencyKey) =>
      attest
        .mutateAsync(
          { courseId, body, idempotencyKey },
          {
            onSuccess: () => onAttested?.(),
            // The refusal says which part of the page is out of date: read that part again.
            onError: (error) => {
              switch (errorCodeOf(error)) {
                // Attested from another tab, the statement or the credit rules changed since the
                // page was read, or the activity closed: the activity carries all of these.
                case "attestation.already_attested":
                case "attestation.statement_changed":
                case "attestation.not_asked":
                case "attestation.claim_too_high":
                case "attestation.claim_off_step":
                case "attestation.claim_required":
                case "attestation.no_partial_credit":
                case "attestation.unknown_credit_type":
                case "credit.expired":
                case "credit.enrollment_expired":
                  void activityQuery.refetch();
                  break;
                // An earlier step is not done (any more): the gate shows which.
                case "credit.step_out_of_order":
                  void completionQuery.refetch();
                  break;
                default:
                  break;
              }
            },
          },
        )
        // The refusal is handled by onError above.
        .catch(() => undefined),
    );
  }

  const failed = [activityQuery, completionQuery, identifiersQuery].find((q) => q.isError);
  if (failed && courseOutOfReach(failed.error)) return <CreditCourseNotFound />;

  let body: ReactNode;
  const activity = activityQuery.data;
  const completion = completionQuery.data;
  // The answer just received, or the attestation on record (after a reload).
  const attestation = result ?? activity?.standing?.attestation ?? null;
  if (failed) {
    body = (
      <CreditPageError
        what="the attestation"
        error={failed.error}
        onRetry={() => {
          if (activityQuery.isError) void activityQuery.refetch();
          if (completionQuery.isError) void completionQuery.refetch();
          if (identifiersQuery.isError) void identifiersQuery.refetch();
        }}
      />
    );
  } else if (!activity || !completion || !identifiersQuery.data) {
    body = <CreditPageSkeleton />;
  } else if (!activity.attestationRequired) {
    body = <NotAsked courseId={courseId} message={CREDIT_MESSAGES.attestationNotAsked} />;
  } else if (attestation) {
    body = (
      <Attested
        attestedAt={attestation.attestedAt}
        credits={attestation.credits}
        justNow={result !== null}
      >
        <CompletionChecklist courseId={courseId} certificateAction={certificateAction} />
      </Attested>
    );
  } else {
    body = (
      <StepGate activity={activity} completion={completion} step="attestation">
        <AttestationForm
          activity={activity}
          reporting={reporting ?? null}
          saved={identifiersQuery.data}
          onSend={send}
          pending={attest.isPending}
          error={attest.isError ? attest.error : null}
        />
      </StepGate>
    );
  }

  return (
    <CreditPage
      courseId={courseId}
      courseTitle={courseTitle}
      title="Attestation"
      description="Confirm the statement below to claim your credit for this activity."
    >
      {body}
    </CreditPage>
  );
}

function Attested({
  attestedAt,
  credits,
  justNow,
  children,
}: {
  attestedAt: string;
  credits: CreditClaim[];
  justNow: boolean;
  children: ReactNode;
}) {
  const dates = useDates();
  const ref = useRef<HTMLElement>(null);
  // The form is gone: its confirmation takes the focus, and is read out.
  useEffect(() => {
    if (justNow) ref.current?.focus();
  }, [justNow]);
  return (
    <div className="grid gap-6">
      <section
        ref={ref}
        tabIndex={-1}
        aria-labelledby="attested-title"
        data-testid="attested"
        className="flex items-start gap-4 rounded-2xl border border-emerald-200 bg-gradient-to-br from-emerald-50 to-white p-5 outline-none focus-visible:ring-2 focus-visible:ring-emerald-500 focus-visible:ring-offset-2 sm:p-6"
      >
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-emerald-600 text-white">
          <BadgeCheckIcon className="size-6" aria-hidden="true" />
        </span>
        <div className="grid min-w-0 gap-1">
          <h2 id="attested-title" className="text-lg font-semibold text-zinc-950">
            {justNow ? "Thank you. Your attestation is recorded." : CREDIT_MESSAGES.attestationDone}
          </h2>
          <p className="text-sm text-zinc-700" data-testid="attested-summary">
            Attested on {dates.date(attestedAt)}
            {credits.length ? ` · ${credits.map((c) => c.text).join(" · ")} claimed` : ""}
          </p>
        </div>
      </section>
      {children}
    </div>
  );
}
