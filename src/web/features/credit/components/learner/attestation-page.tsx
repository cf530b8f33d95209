import {
  type Activity,
  type AttestWithIdentifiersBody,
  CREDIT_MESSAGES,
  type CreditClaim,
  type CreditType,
  creditAmountText,
  creditChoices,
  type Identifiers,
  identifierNeeds,
  REGULATORS,
  type Regulator,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { BadgeCheckIcon, StampIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
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
import { useDates } from "../../../../lib/dates";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { useSingleSubmit } from "../../../../lib/use-single-submit";
import { type AttestResult, useAttestActivity } from "../../api/attest-activity";
import { useActivity } from "../../api/get-activity";
import { useCourseCompletion } from "../../api/get-course-completion";
import { useIdentifiers } from "../../api/get-identifiers";
import { AttestationIdentifiers, askedGroups, missingForClaim } from "./attestation-identifiers";
import { CompletionChecklist } from "./completion-checklist";
import {
  CreditCourseNotFound,
  CreditPage,
  CreditPageError,
  CreditPageSkeleton,
  courseOutOfReach,
} from "./credit-page";
import { type IdentifiersForm, identifiersResolver, patchOf } from "./identifier-fields";
import { NotAsked, StepGate } from "./step-notices";

const NO_TYPES: readonly string[] = [];

/** The amounts a learner may claim of a type: its steps up to its amount, or null for all of it. */
const claimChoices = (t: CreditType): number[] | null =>
  t.claimStep === null ? null : creditChoices(t.amount, t.claimStep);

/**
 * The form: the statement affirmed, for each offered type whether it is claimed and how much
 * of it (an amount typed only for a type with a claim step), and the consent to the reporting
 * while a claimed type reports to a regulator. A course offering one type claims it: the
 * learner only picks the amount, as before types.
 */
const attestFormSchema = (types: CreditType[], reportedTypeIds: readonly string[]) =>
  z
    .object({
      affirmed: z.boolean().refine((v) => v, "Tick the box to affirm the statement"),
      claims: z.array(z.object({ claimed: z.boolean(), amount: z.string() })),
      reportingConsent: z.boolean(),
    })
    .superRefine((form, ctx) => {
      if (!form.reportingConsent && claimsReported(types, form.claims, reportedTypeIds)) {
        ctx.addIssue({
          code: "custom",
          path: ["reportingConsent"],
          message: "Tick the box to agree to the reporting of your credit",
        });
      }
      if (types.length > 1 && !form.claims.some((c) => c.claimed)) {
        ctx.addIssue({ code: "custom", path: ["claims"], message: CREDIT_MESSAGES.claimNeeded });
      }
      form.claims.forEach((c, i) => {
        if (c.claimed && types[i]?.claimStep != null && !c.amount) {
          ctx.addIssue({
            code: "custom",
            path: ["claims", i, "amount"],
            message: CREDIT_MESSAGES.claimNeeded,
          });
        }
      });
    });
type AttestForm = z.infer<ReturnType<typeof attestFormSchema>>;

/** Whether a type the learner claims reports to a regulator (its claim needs their consent). */
const claimsReported = (
  types: CreditType[],
  claims: { claimed: boolean }[],
  reportedTypeIds: readonly string[],
) => types.some((t, i) => claims[i]?.claimed && reportedTypeIds.includes(t.id));

/** Where the course's credit is reported (the reporting feature's), and the consent it asks. */
export interface CourseReporting {
  /** The words the learner agrees to. */
  consent: string;
  /** Each regulator with the credit types reported to it. */
  regulators: { regulator: Regulator; creditTypeIds: string[] }[];
}

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

type SendProps = {
  onSend: (body: AttestWithIdentifiersBody) => void;
  pending: boolean;
  error: Error | null;
};

/**
 * What the claimed types ask of the learner's identifiers: their regulators' needs and, for
 * a type requiring it, a licence.
 */
function claimNeeds(
  types: CreditType[],
  claims: { claimed: boolean }[],
  reporting: CourseReporting | null,
) {
  const claimed = types.filter((_, i) => claims[i]?.claimed);
  const regulators = REGULATORS.filter((regulator) =>
    reporting?.regulators.some(
      (r) => r.regulator === regulator && claimed.some((t) => r.creditTypeIds.includes(t.id)),
    ),
  );
  const licenceTypes = claimed.filter((t) => t.licenceRequired).map((t) => t.name);
  return { regulators, licenceTypes, needs: identifierNeeds(regulators, licenceTypes.length > 0) };
}

function AttestationForm({
  activity,
  reporting,
  saved,
  onSend,
  pending,
  error,
}: {
  activity: Activity;
  reporting: CourseReporting | null;
  /** The learner's identifiers as their profile holds them. */
  saved: Identifiers;
} & SendProps) {
  const types = activity.creditTypes;
  const reportedTypeIds = useMemo(
    () => reporting?.regulators.flatMap((r) => r.creditTypeIds) ?? NO_TYPES,
    [reporting],
  );
  const schema = useMemo(() => attestFormSchema(types, reportedTypeIds), [types, reportedTypeIds]);
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm<AttestForm>({
    resolver: zodResolver(schema),
    defaultValues: {
      affirmed: false,
      claims: types.map(() => ({ claimed: types.length === 1, amount: "" })),
      reportingConsent: false,
    },
  });
  const claims = useWatch({ control, name: "claims" });
  const asksConsent = reporting !== null && claimsReported(types, claims, reportedTypeIds);

  // The identifiers the claim needs: read back when the profile holds them, asked for when
  // it lacks them (or while the learner changes them), and sent with the attestation.
  const [changing, setChanging] = useState(false);
  const { regulators, licenceTypes, needs } = claimNeeds(types, claims, reporting);
  const groups = askedGroups(needs, saved, changing);
  // Read at each validation, so it always checks the groups shown now.
  const resolver = identifiersResolver(groups, saved, missingForClaim(needs, saved));
  // The statement and the claim come first on the page: they take the focus when refused.
  const identifiers = useForm<IdentifiersForm>({
    resolver,
    values: saved,
    shouldFocusError: false,
  });
  const formRef = useRef<HTMLFormElement>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let identifiersValid = groups.length === 0;
    if (!identifiersValid) {
      await identifiers.handleSubmit(() => {
        identifiersValid = true;
      })();
    }
    await handleSubmit((form) => {
      if (!identifiersValid) {
        // Once the refusal shows: the first field it names.
        requestAnimationFrame(() =>
          formRef.current
            ?.querySelector<HTMLElement>(
              '[data-testid="attestation-identifiers"] [aria-invalid="true"]',
            )
            ?.focus(),
        );
        return;
      }
      onSend({
        statement: activity.attestationText,
        claims: types.flatMap((t, i) => {
          const claim = form.claims[i];
          if (!claim?.claimed) return [];
          return [
            { creditTypeId: t.id, amount: t.claimStep === null ? null : Number(claim.amount) },
          ];
        }),
        ...(claimsReported(types, form.claims, reportedTypeIds)
          ? { reportingConsent: form.reportingConsent }
          : {}),
        ...(groups.length ? { identifiers: patchOf(identifiers.getValues(), groups, saved) } : {}),
      });
    })(event);
  };

  return (
    <form
      ref={formRef}
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

      {types.length > 1 ? (
        <fieldset className="grid gap-3" aria-describedby="attest-claims-hint">
          <legend className="text-sm font-medium text-zinc-900">Credit you claim</legend>
          <p id="attest-claims-hint" className="-mt-1 text-xs text-zinc-600">
            Claim the credit of your profession. Each type is awarded on its own; they are never
            added together.
          </p>
          {types.map((t, i) => (
            <div
              key={t.id}
              data-testid="claim-type"
              className="grid gap-3 rounded-xl border border-zinc-200 p-3 has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/40"
            >
              <div className="flex items-start gap-3">
                <Controller
                  control={control}
                  name={`claims.${i}.claimed`}
                  render={({ field }) => (
                    <Checkbox
                      id={`attest-claim-${i}`}
                      ref={field.ref}
                      checked={field.value}
                      onCheckedChange={(checked) => field.onChange(checked === true)}
                      onBlur={field.onBlur}
                      className="mt-0.5"
                    />
                  )}
                />
                <Label htmlFor={`attest-claim-${i}`} className="grid gap-0.5 leading-snug">
                  <span>{creditAmountText(t.amount, t.name)}</span>
                  {t.accreditingBody ? (
                    <span className="text-xs font-normal text-zinc-600">{t.accreditingBody}</span>
                  ) : null}
                </Label>
              </div>
              {claims[i]?.claimed ? (
                <ClaimAmount
                  type={t}
                  index={i}
                  control={control}
                  error={errors.claims?.[i]?.amount?.message}
                />
              ) : null}
            </div>
          ))}
          {/* The list's own rule: shown until a type is ticked (its rows revalidate alone). */}
          {(errors.claims?.root?.message || errors.claims?.message) &&
          !claims.some((c) => c.claimed) ? (
            <p role="alert" className="text-xs font-medium text-red-700">
              {errors.claims?.root?.message ?? errors.claims?.message}
            </p>
          ) : null}
        </fieldset>
      ) : types[0] ? (
        <ClaimAmount
          type={types[0]}
          index={0}
          control={control}
          error={errors.claims?.[0]?.amount?.message}
        />
      ) : null}

      <AttestationIdentifiers
        form={identifiers}
        saved={saved}
        needs={needs}
        groups={groups}
        regulators={regulators}
        licenceTypes={licenceTypes}
        changing={changing}
        onChange={() => setChanging(true)}
      />

      {asksConsent && reporting ? (
        <div className="grid gap-2" data-testid="reporting-consent">
          <div className="flex items-start gap-3">
            <Controller
              control={control}
              name="reportingConsent"
              render={({ field }) => (
                <Checkbox
                  id="attest-reporting-consent"
                  ref={field.ref}
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  className="mt-0.5"
                  {...fieldAria("attest-reporting-consent", errors.reportingConsent)}
                />
              )}
            />
            <Label htmlFor="attest-reporting-consent" className="leading-snug">
              {reporting.consent}
            </Label>
          </div>
          {errors.reportingConsent ? (
            <p
              id="attest-reporting-consent-error"
              role="alert"
              className="text-xs font-medium text-red-700"
            >
              {errors.reportingConsent.message}
            </p>
          ) : null}
        </div>
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

/**
 * How much of a claimed type the learner claims: a choice of its steps when it has a claim
 * step; nothing to choose (its whole amount) otherwise.
 */
function ClaimAmount({
  type,
  index,
  control,
  error,
}: {
  type: CreditType;
  index: number;
  control: ReturnType<typeof useForm<AttestForm>>["control"];
  error?: string;
}) {
  const choices = claimChoices(type);
  if (!choices) return null;
  const id = `attest-credits-${index}`;
  return (
    <Field
      id={id}
      label={`Amount claimed (up to ${creditAmountText(type.amount, type.name)})`}
      hint={`Claim only the credit that matches the time you spent, in steps of ${type.claimStep}.`}
      error={error}
      className="sm:max-w-sm"
    >
      <Controller
        control={control}
        name={`claims.${index}.amount`}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger
              id={id}
              ref={field.ref}
              onBlur={field.onBlur}
              {...fieldAria(id, error ? { message: error } : undefined, { hint: true })}
            >
              <SelectValue placeholder="Choose the credit you claim" />
            </SelectTrigger>
            <SelectContent>
              {[...choices].reverse().map((credits) => (
                <SelectItem key={credits} value={String(credits)}>
                  {creditAmountText(credits, type.name)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </Field>
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
