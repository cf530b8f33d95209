import type { CatalogueType, CreditCatalogue } from "@contract";
import { CheckIcon, GitMergeIcon, ShieldAlertIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../../components/ui/button";
import { FieldError } from "../../../../components/ui/field";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { useConfirmCatalogueType } from "../../api/admin-confirm-catalogue-type";
import { CATALOGUE_TOASTS, catalogueTypeLabel } from "../../catalogue-labels";
import { MergeTypeDialog } from "./merge-type-dialog";
import { useDialogItem } from "./use-dialog-item";

/**
 * The types made from courses' own credit rather than in the catalogue, first on the page:
 * each is confirmed as it is, or merged into the type it repeats.
 */
export function CatalogueReviewCard({ catalogue }: { catalogue: CreditCatalogue }) {
  const flagged = catalogue.types.filter((t) => t.needsReview);
  const merging = useDialogItem<CatalogueType>();
  if (!flagged.length) return null;
  return (
    <section
      aria-labelledby="catalogue-review-title"
      className="grid gap-4 rounded-2xl border border-amber-200 bg-amber-50/70 p-5 sm:p-6"
    >
      <div className="grid gap-1.5">
        <h2
          id="catalogue-review-title"
          className="flex items-center gap-2 text-base font-semibold text-amber-950"
        >
          <ShieldAlertIcon className="size-5 text-amber-700" aria-hidden="true" />
          Review {plural(flagged.length, "credit type")}
        </h2>
        <p className="text-sm text-amber-950">
          Made from your courses' own credit, not in the catalogue. Confirm each one that is right,
          or merge it into the type it repeats so learners' credit adds up.
        </p>
      </div>
      <ul aria-label="Credit types to review" className="grid gap-2">
        {flagged.map((type) => (
          <ReviewRow
            key={type.id}
            type={type}
            catalogue={catalogue}
            onMerge={() => merging.show(type)}
          />
        ))}
      </ul>
      <MergeTypeDialog
        open={merging.open}
        type={merging.item}
        catalogue={catalogue}
        onOpenChange={merging.onOpenChange}
      />
    </section>
  );
}

function ReviewRow({
  type,
  catalogue,
  onMerge,
}: {
  type: CatalogueType;
  catalogue: CreditCatalogue;
  onMerge: () => void;
}) {
  const confirm = useConfirmCatalogueType();
  const [error, setError] = useState<string | null>(null);
  const label = catalogueTypeLabel(type, catalogue.bodies);
  return (
    <li
      data-testid="catalogue-review-type"
      className="flex flex-col gap-3 rounded-xl border border-amber-200 bg-white px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="grid min-w-0 gap-0.5">
        <p id={`catalogue-review-${type.id}`} className="font-medium break-words text-zinc-950">
          {label}
        </p>
        <p className="text-sm text-zinc-600">
          {type.courses ? `Offered by ${plural(type.courses, "course")}` : "Not offered yet"}
          {type.profession ? ` · ${type.profession}` : " · No profession yet"}
        </p>
        <FieldError>{error}</FieldError>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          aria-describedby={`catalogue-review-${type.id}`}
          disabled={confirm.isPending}
          onClick={() => {
            setError(null);
            confirm.mutate(type.id, {
              onSuccess: () => toast({ title: CATALOGUE_TOASTS.typeConfirmed, description: label }),
              onError: (err) =>
                setError(getErrorMessage(err) ?? "The credit type could not be confirmed."),
            });
          }}
        >
          {confirm.isPending ? <Spinner /> : <CheckIcon aria-hidden="true" />}
          Confirm
        </Button>
        <Button
          variant="outline"
          size="sm"
          aria-describedby={`catalogue-review-${type.id}`}
          disabled={catalogue.types.length < 2}
          onClick={onMerge}
        >
          <GitMergeIcon aria-hidden="true" />
          Merge into…
        </Button>
      </div>
    </li>
  );
}
