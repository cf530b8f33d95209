import { type Activity, type AttestBody, CREDIT_MESSAGES, creditChoices } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { BadgeCheckIcon, StampIcon } from "lucide-react";
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { Controller, useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../../components/ui/button";
import { Checkbox } from "../../../../components/ui/checkbox";
import { Field, fieldAria } from "../../../../components/ui/field";
import { Label } from "../../../../components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "../../../../components/ui/select";
import { Spinner } from "../../../../components/ui/spinner";
import { errorCodeOf, getErrorMessage } from "../../../../lib/api-client";
import { formatDate } from "../../../../lib/format";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { type AttestResult, useAttestActivity } from "../../api/attest-activity";
import { useActivity } from "../../api/get-activity";
import { useCourseCompletion } from "../../api/get-course-completion";
import { creditsText } from "../../credit-steps";
import { CompletionChecklist } from "./completion-checklist";
import {
  CreditCourseNotFound,
  CreditPage,
  CreditPageError,
  CreditPageSkeleton,
  courseOutOfReach,
} from "./credit-page";
import { NotAsked, StepGate } from "./step-notices";

/** The credits a learner may claim, when the course awards partial credit. */
function claimChoices(a: Activity): number[] | null {
  if (a.partialCreditStep === null || a.creditHours === null) return null;
  return creditChoices(a.creditHours, a.partialCreditStep);
}

const attestFormSchema = (partial: boolean) =>
  z.object({
    affirmed: z.boolean().refine((v) => v, "Tick the box to affirm the statement"),
    creditsClaimed: partial ? z.string().min(1, CREDIT_MESSAGES.claimNeeded) : z.string(),
  });
type AttestForm = z.infer<ReturnType<typeof attestFormSchema>>;

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
}: {
  courseId: string;
  courseTitle?: string;
  /** The certificate download once the course is complete (certificates feature). */
  certificateAction?: ReactNode;
  /** The attestation was recorded: it may have completed the course. */
  onAttested?: () => void;
}) {
  useDocumentTitle(courseTitle ? `Attestation · ${courseTitle}` : "Attestation");
  const activityQuery = useActivity(courseId);
  const completionQuery = useCourseCompletion(courseId);
  // Held here, not in the form: the form goes away as soon as the attestation is recorded.
  const attest = useAttestActivity();
  const result: AttestResult | null = attest.data ?? null;

  function send(body: AttestBody) {
    attest.mutate(
      { courseId, body },
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
    );
  }

  const failed = [activityQuery, completionQuery].find((q) => q.isError);
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
        }}
      />
    );
  } else if (!activity || !completion) {
    body = <CreditPageSkeleton />;
  } else if (!activity.attestationRequired) {
    body = <NotAsked courseId={courseId} message={CREDIT_MESSAGES.attestationNotAsked} />;
  } else if (attestation) {
    body = (
      <Attested
        attestedAt={attestation.attestedAt}
        credits={attestation.creditsClaimed}
        creditType={activity.creditType}
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

type SendProps = {
  onSend: (body: AttestBody) => void;
  pending: boolean;
  error: Error | null;
};

function AttestationForm({ activity, onSend, pending, error }: { activity: Activity } & SendProps) {
  const choices = claimChoices(activity);
  const partial = choices !== null;
  const schema = useMemo(() => attestFormSchema(partial), [partial]);
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<AttestForm>({
    resolver: zodResolver(schema),
    defaultValues: { affirmed: false, creditsClaimed: "" },
  });
  const max = activity.creditHours ?? 0;

  const onSubmit = handleSubmit(({ creditsClaimed }) =>
    onSend({
      statement: activity.attestationText,
      creditsClaimed: choices ? Number(creditsClaimed) : null,
    }),
  );

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Attestation"
      className="grid gap-5 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 sm:p-6"
    >
      <figure className="grid gap-2">
        <figcaption className="text-xs font-medium tracking-wide text-zinc-600 uppercase">
          Statement
        </figcaption>
        <blockquote
          data-testid="attestation-statement"
          className="rounded-xl border border-indigo-100 bg-indigo-50/60 p-4 text-[15px] leading-relaxed break-words whitespace-pre-line text-zinc-900 sm:p-5"
        >
          {activity.attestationText}
        </blockquote>
      </figure>

      <div className="grid gap-2">
        <div className="flex items-start gap-3">
          <Controller
            control={control}
            name="affirmed"
            render={({ field }) => (
              <Checkbox
                id="attest-affirm"
                ref={field.ref}
                checked={field.value}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                onBlur={field.onBlur}
                className="mt-0.5"
                {...fieldAria("attest-affirm", errors.affirmed)}
              />
            )}
          />
          <Label htmlFor="attest-affirm" className="leading-snug">
            I affirm this statement
          </Label>
        </div>
        {errors.affirmed ? (
          <p id="attest-affirm-error" role="alert" className="text-xs font-medium text-red-700">
            {errors.affirmed.message}
          </p>
        ) : null}
      </div>

      {choices ? (
        <Field
          id="attest-credits"
          label={`Credits claimed (up to ${max})`}
          hint={`Claim only the credit that matches the time you spent, in steps of ${activity.partialCreditStep}.`}
          error={errors.creditsClaimed?.message}
          className="sm:max-w-xs"
        >
          <Controller
            control={control}
            name="creditsClaimed"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger
                  id="attest-credits"
                  ref={field.ref}
                  onBlur={field.onBlur}
                  {...fieldAria("attest-credits", errors.creditsClaimed, { hint: true })}
                >
                  <SelectValue placeholder="Choose the credit you claim" />
                </SelectTrigger>
                <SelectContent>
                  {[...choices].reverse().map((credits) => (
                    <SelectItem key={credits} value={String(credits)}>
                      {creditsText(credits, activity.creditType)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        </Field>
      ) : null}

      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {getErrorMessage(error) ??
            "Your attestation could not be saved. Check your connection and try again."}
        </p>
      ) : null}
      <div className="border-t border-zinc-100 pt-5">
        <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={pending}>
          {pending ? <Spinner /> : <StampIcon aria-hidden="true" />}
          Attest and claim credit
        </Button>
      </div>
    </form>
  );
}

function Attested({
  attestedAt,
  credits,
  creditType,
  justNow,
  children,
}: {
  attestedAt: string;
  credits: number | null;
  creditType: string | null;
  justNow: boolean;
  children: ReactNode;
}) {
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
            Attested on {formatDate(attestedAt)}
            {credits !== null ? ` · ${creditsText(credits, creditType)} claimed` : ""}
          </p>
        </div>
      </section>
      {children}
    </div>
  );
}
