import { type CatalogueBody, CREDIT_HOUR_MINUTES, creditBodyBodySchema } from "@contract";
import { type FormEvent, useState } from "react";
import { Button } from "../../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../../components/ui/dialog";
import { Field, fieldAria } from "../../../../components/ui/field";
import { Input } from "../../../../components/ui/input";
import { Spinner } from "../../../../components/ui/spinner";
import { useSaveCatalogueBody } from "../../api/admin-save-catalogue-body";
import { CATALOGUE_TOASTS } from "../../catalogue-labels";
import { FormAlert } from "../admin/form-alert";
import { useCatalogueSave } from "./use-catalogue-save";

const HOUR_LABELS: Record<(typeof CREDIT_HOUR_MINUTES)[number], string> = {
  60: "60 minutes",
  50: "50 minutes (NASBA CPE)",
};

/**
 * Adds an accrediting body to the catalogue, or edits one (`body`): its name, the provider
 * number it gave, and how long its credit hour is, which publishing checks credit against.
 */
export function BodyDialog({
  open,
  onOpenChange,
  body,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  body?: CatalogueBody;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>{body ? `Edit ${body.name}` : "Add accrediting body"}</DialogTitle>
          <DialogDescription>
            Entered once: every credit type it accredits prints its name and provider number.
          </DialogDescription>
        </DialogHeader>
        {open ? <BodyForm body={body} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function BodyForm({ body, onDone }: { body?: CatalogueBody; onDone: () => void }) {
  const [name, setName] = useState(body?.name ?? "");
  const [providerNumber, setProviderNumber] = useState(body?.providerNumber ?? "");
  const [minutesPerHour, setMinutesPerHour] = useState<50 | 60>(body?.minutesPerHour ?? 60);
  const save = useSaveCatalogueBody();
  const { errors, serverError, edited, submit } = useCatalogueSave({
    schema: creditBodyBodySchema,
    save,
    id: body?.id,
    savedTitle: body ? CATALOGUE_TOASTS.bodySaved : CATALOGUE_TOASTS.bodyAdded,
    failure: "The accrediting body could not be saved.",
    nameTaken: "catalogue.body_name_taken",
    onDone,
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    submit({ name, providerNumber, minutesPerHour });
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Accrediting body" className="grid gap-5">
      <Field id="catalogue-body-name" label="Name" error={errors.name}>
        <Input
          id="catalogue-body-name"
          value={name}
          placeholder="e.g. ANCC, NASBA, ACCME"
          onChange={(e) => {
            edited("name");
            setName(e.target.value);
          }}
          {...fieldAria("catalogue-body-name", errors.name)}
        />
      </Field>
      <Field
        id="catalogue-body-number"
        label={
          <>
            Provider number <span className="font-normal text-zinc-500">(optional)</span>
          </>
        }
        hint="The number the body gave you as a provider; certificates print it."
        error={errors.providerNumber}
      >
        <Input
          id="catalogue-body-number"
          value={providerNumber}
          onChange={(e) => {
            edited("providerNumber");
            setProviderNumber(e.target.value);
          }}
          {...fieldAria("catalogue-body-number", errors.providerNumber, { hint: true })}
        />
      </Field>
      <fieldset className="m-0 grid min-w-0 gap-2 border-0 p-0">
        <legend className="mb-2 text-sm font-medium text-zinc-900">A credit hour is</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {CREDIT_HOUR_MINUTES.map((minutes) => (
            <label
              key={minutes}
              className="flex cursor-pointer items-center gap-2.5 rounded-xl border border-zinc-200 px-3 py-2.5 text-sm text-zinc-900 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500"
            >
              <input
                type="radio"
                name="catalogue-body-hour"
                value={minutes}
                checked={minutesPerHour === minutes}
                onChange={() => setMinutesPerHour(minutes)}
                className="size-4 accent-indigo-600"
              />
              {HOUR_LABELS[minutes]}
            </label>
          ))}
        </div>
      </fieldset>
      <FormAlert message={serverError} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          {body ? "Save body" : "Add body"}
        </Button>
      </DialogFooter>
    </form>
  );
}
