import type { CatalogueType, CreditCatalogue } from "@contract";
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
import { inputClassName } from "../../../../components/ui/input";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { useMergeCatalogueType } from "../../api/admin-merge-catalogue-type";
import { CATALOGUE_TOASTS, catalogueTypeLabel } from "../../catalogue-labels";
import { FormAlert } from "../admin/form-alert";

/**
 * Merges a type into the one it repeats: the courses offering it offer that one instead,
 * with their own amounts, and learners' credit of both adds up on transcripts.
 */
export function MergeTypeDialog({
  open,
  type,
  catalogue,
  onOpenChange,
}: {
  open: boolean;
  /** The type to merge. */
  type: CatalogueType | undefined;
  catalogue: CreditCatalogue;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Merge {type?.name}</DialogTitle>
          <DialogDescription>
            {type
              ? `The ${plural(type.courses, "course")} offering it will offer the type you choose, each with its own amount; credit learners already claimed adds up with it.`
              : null}
          </DialogDescription>
        </DialogHeader>
        {open && type ? (
          <MergeForm type={type} catalogue={catalogue} onDone={() => onOpenChange(false)} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function MergeForm({
  type,
  catalogue,
  onDone,
}: {
  type: CatalogueType;
  catalogue: CreditCatalogue;
  onDone: () => void;
}) {
  const others = catalogue.types.filter((t) => t.id !== type.id);
  const [intoId, setIntoId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const merge = useMergeCatalogueType();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!intoId) {
      setError("Choose the credit type to merge into");
      return;
    }
    setError(null);
    setServerError(null);
    merge.mutate(
      { id: type.id, intoId },
      {
        onSuccess: (into) => {
          toast({
            title: CATALOGUE_TOASTS.typeMerged,
            description: `${type.name} is now ${catalogueTypeLabel(into, catalogue.bodies)}.`,
          });
          onDone();
        },
        onError: (err) =>
          setServerError(getErrorMessage(err) ?? "The credit types could not be merged."),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Merge credit type" className="grid gap-5">
      <Field id="catalogue-merge-into" label="Merge into" error={error ?? undefined}>
        <select
          id="catalogue-merge-into"
          className={inputClassName}
          value={intoId}
          onChange={(e) => setIntoId(e.target.value)}
          {...fieldAria("catalogue-merge-into", error)}
        >
          <option value="">Choose a credit type</option>
          {others.map((t) => (
            <option key={t.id} value={t.id}>
              {catalogueTypeLabel(t, catalogue.bodies)}
            </option>
          ))}
        </select>
      </Field>
      <FormAlert message={serverError} />
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={merge.isPending}>
          {merge.isPending ? <Spinner /> : null}
          Merge
        </Button>
      </DialogFooter>
    </form>
  );
}
