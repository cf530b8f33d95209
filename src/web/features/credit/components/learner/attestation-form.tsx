import {
  type Activity,
  type AttestWithIdentifiersBody,
  CREDIT_MESSAGES,
  type CreditType,
  creditAmountText,
  creditChoices,
  type Identifiers,
  identifierNeeds,
  REGULATORS,
  type Regulator,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { StampIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useMemo, useRef, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../../components/ui/button";
import { Checkbox } from "../../../../components/ui/checkbox";
import { Field, FieldError, fieldAria } from "../../../../components/ui/field";
import { Label } from "../../../../components/ui/label";
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from "../../../../components/ui/select";
import { Spinner } from "../../../../components/ui/spinner";
import { getErrorMessage } from "../../../../lib/api-client";
import { AttestationIdentifiers, askedGroups, missingForClaim } from "./attestation-identifiers";
import { type IdentifiersForm, identifiersResolver, patchOf } from "./identifier-fields";

const NO_TYPES: readonly string[] = [];

/** The amounts a learner may claim of a type: its steps up to its amount, or null for all of it. */
const claimChoices = (t: CreditType): number[] | null =>
  t.claimStep === null ? null : creditChoices(t.amount, t.claimStep);

/**
 * The form: the statement affirmed, for each offered type whether it is claimed and how much
 * of it (an amount typed only for a type with a claim step), and the consent to the reporting
 * while a claimed type reports to a regulator. A course offering one type claims it: the
 * learner only picks the amount.
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

/**
 * The attestation as the learner fills it in: the statement affirmed, the credit claimed, the
 * identifiers the claim needs and the consent to its reporting, sent as one request.
 */
export function AttestationForm({
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

      <TickedStatement
        id="attest-affirm"
        name="affirmed"
        control={control}
        error={errors.affirmed?.message}
      >
        I affirm this statement
      </TickedStatement>

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
            <FieldError>{errors.claims?.root?.message ?? errors.claims?.message}</FieldError>
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
        <TickedStatement
          id="attest-reporting-consent"
          name="reportingConsent"
          control={control}
          error={errors.reportingConsent?.message}
          testId="reporting-consent"
        >
          {reporting.consent}
        </TickedStatement>
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

/** A statement the learner ticks to agree to, with the refusal while it is not ticked. */
function TickedStatement({
  id,
  name,
  control,
  error,
  testId,
  children,
}: {
  id: string;
  name: "affirmed" | "reportingConsent";
  control: ReturnType<typeof useForm<AttestForm>>["control"];
  error?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-2" data-testid={testId}>
      <div className="flex items-start gap-3">
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Checkbox
              id={id}
              ref={field.ref}
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              className="mt-0.5"
              {...fieldAria(id, error)}
            />
          )}
        />
        <Label htmlFor={id} className="leading-snug">
          {children}
        </Label>
      </div>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
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
