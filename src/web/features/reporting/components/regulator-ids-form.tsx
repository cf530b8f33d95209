import {
  CERTIFYING_BOARDS,
  EMPTY_REGULATOR_IDS,
  type Regulator,
  type RegulatorIds,
  type RegulatorIdsBody,
  type RegulatorIdsInput,
  regulatorIdsBodySchema,
  US_STATES,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import type { ComponentProps, ReactNode } from "react";
import { useForm } from "react-hook-form";
import { Button } from "../../../components/ui/button";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input, inputClassName } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { cn } from "../../../lib/utils";
import { useUpdateMyRegulatorIds } from "../api/update-my-regulator-ids";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

/** The groups of identifiers, and the regulators that ask for each. */
const GROUPS = {
  name: ["pars", "ce_broker"],
  birth: ["pars", "cpe_monitor"],
  licence: ["pars", "ce_broker"],
  profession: ["ce_broker"],
  board: ["pars"],
  npi: ["pars"],
  epid: ["cpe_monitor"],
} satisfies Record<string, Regulator[]>;

const numberOrNull = (v: unknown) => (v === "" || v === null ? null : Number(v));

/** A native select dressed as an input (a select matches `:read-only`, which greys inputs). */
export function NativeSelect({ className, ...props }: ComponentProps<"select">) {
  return (
    <select
      className={cn(inputClassName, "pr-8 read-only:bg-white read-only:text-zinc-900", className)}
      {...props}
    />
  );
}

/**
 * The identifiers a learner gives the regulators their credit is reported to, each checked by
 * its published rule as it is typed (the contract's schema, the same the server holds them
 * to). `regulators` limits the form to what those regulators ask; all by default.
 */
export function RegulatorIdsForm({
  ids,
  regulators,
  submitLabel = "Save identifiers",
  footnote,
  onSaved,
}: {
  ids: RegulatorIds;
  regulators?: Regulator[];
  submitLabel?: string;
  footnote?: ReactNode;
  onSaved?: (ids: RegulatorIds) => void;
}) {
  const update = useUpdateMyRegulatorIds();
  const shows = (group: keyof typeof GROUPS) =>
    !regulators || GROUPS[group].some((r: Regulator) => regulators.includes(r));
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<RegulatorIdsInput, unknown, RegulatorIdsBody>({
    resolver: zodResolver(regulatorIdsBodySchema),
    values: {
      ...EMPTY_REGULATOR_IDS,
      ...ids,
      certifyingBoard: (ids.certifyingBoard || "") as RegulatorIdsInput["certifyingBoard"],
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      reset({
        ...saved.ids,
        certifyingBoard: saved.ids.certifyingBoard as RegulatorIdsInput["certifyingBoard"],
      });
      toast({ title: "Identifiers saved", description: "Your next claims will report them." });
      onSaved?.(saved.ids);
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Could not save your identifiers",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Identifiers for regulators"
      className="grid gap-5"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        {shows("name") ? (
          <>
            <Field
              id="reg-first-name"
              label="First name"
              hint="As your licensing board knows you."
              error={errors.firstName?.message}
            >
              <Input
                id="reg-first-name"
                autoComplete="given-name"
                {...fieldAria("reg-first-name", errors.firstName, { hint: true })}
                {...register("firstName")}
              />
            </Field>
            <Field id="reg-last-name" label="Last name" error={errors.lastName?.message}>
              <Input
                id="reg-last-name"
                autoComplete="family-name"
                {...fieldAria("reg-last-name", errors.lastName)}
                {...register("lastName")}
              />
            </Field>
          </>
        ) : null}
        {shows("birth") ? (
          <fieldset className="grid gap-2 sm:col-span-2" aria-describedby="reg-birth-hint">
            <legend className="text-sm font-medium text-zinc-900">Month and day of birth</legend>
            <p className="-mt-1 text-xs text-zinc-600" id="reg-birth-hint">
              Regulators match you by it; the year is never asked.
            </p>
            <div className="grid grid-cols-2 gap-3 sm:max-w-sm">
              <Field id="reg-birth-month" label="Month" error={errors.birthMonth?.message}>
                <NativeSelect
                  id="reg-birth-month"
                  {...fieldAria("reg-birth-month", errors.birthMonth)}
                  {...register("birthMonth", { setValueAs: numberOrNull })}
                >
                  <option value="">Month</option>
                  {MONTHS.map((name, i) => (
                    <option key={name} value={i + 1}>
                      {name}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field id="reg-birth-day" label="Day" error={errors.birthDay?.message}>
                <NativeSelect
                  id="reg-birth-day"
                  {...fieldAria("reg-birth-day", errors.birthDay)}
                  {...register("birthDay", { setValueAs: numberOrNull })}
                >
                  <option value="">Day</option>
                  {DAYS.map((day) => (
                    <option key={day} value={day}>
                      {day}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </div>
          </fieldset>
        ) : null}
        {shows("licence") ? (
          <>
            <Field
              id="reg-licence-state"
              label="State of licensure"
              error={errors.licenceState?.message}
            >
              <NativeSelect
                id="reg-licence-state"
                {...fieldAria("reg-licence-state", errors.licenceState)}
                {...register("licenceState")}
              >
                <option value="">None</option>
                {US_STATES.map((state) => (
                  <option key={state} value={state}>
                    {state}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field
              id="reg-licence-number"
              label="State licence number"
              error={errors.licenceNumber?.message}
            >
              <Input
                id="reg-licence-number"
                autoComplete="off"
                {...fieldAria("reg-licence-number", errors.licenceNumber)}
                {...register("licenceNumber")}
              />
            </Field>
          </>
        ) : null}
        {shows("npi") ? (
          <Field
            id="reg-npi"
            label="NPI"
            hint="Your National Provider Identifier, 10 digits."
            error={errors.npi?.message}
          >
            <Input
              id="reg-npi"
              inputMode="numeric"
              autoComplete="off"
              {...fieldAria("reg-npi", errors.npi, { hint: true })}
              {...register("npi")}
            />
          </Field>
        ) : null}
        {shows("profession") ? (
          <Field
            id="reg-profession"
            label="Profession"
            hint="Your licence's profession code in CE Broker, such as RN or LPN."
            error={errors.profession?.message}
          >
            <Input
              id="reg-profession"
              autoComplete="off"
              {...fieldAria("reg-profession", errors.profession, { hint: true })}
              {...register("profession")}
            />
          </Field>
        ) : null}
        {shows("board") ? (
          <>
            <Field
              id="reg-board"
              label="Certifying board"
              hint="For MOC credit: the board that certifies you."
              error={errors.certifyingBoard?.message}
            >
              <NativeSelect
                id="reg-board"
                {...fieldAria("reg-board", errors.certifyingBoard, { hint: true })}
                {...register("certifyingBoard")}
              >
                <option value="">None</option>
                {CERTIFYING_BOARDS.map((board) => (
                  <option key={board} value={board}>
                    {board}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field id="reg-board-id" label="Board ID" error={errors.boardId?.message}>
              <Input
                id="reg-board-id"
                autoComplete="off"
                {...fieldAria("reg-board-id", errors.boardId)}
                {...register("boardId")}
              />
            </Field>
          </>
        ) : null}
        {shows("epid") ? (
          <Field
            id="reg-epid"
            label="NABP e-Profile ID"
            hint="Pharmacists and technicians: for CPE Monitor."
            error={errors.nabpEpid?.message}
          >
            <Input
              id="reg-epid"
              inputMode="numeric"
              autoComplete="off"
              {...fieldAria("reg-epid", errors.nabpEpid, { hint: true })}
              {...register("nabpEpid")}
            />
          </Field>
        ) : null}
      </div>
      <div className="flex flex-col-reverse gap-3 border-t border-zinc-100 pt-5 sm:flex-row sm:items-center sm:justify-between">
        {footnote ? <p className="text-xs text-zinc-600">{footnote}</p> : <span />}
        <Button type="submit" className="w-full sm:w-auto" disabled={!isDirty || update.isPending}>
          {update.isPending ? <Spinner /> : null}
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
