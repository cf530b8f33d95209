import type { CreditCatalogue } from "@contract";
import { LibraryBigIcon, LightbulbIcon, PlusIcon } from "lucide-react";
import { Button } from "../../../../components/ui/button";
import { EmptyState } from "../../../../components/ui/empty-state";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { loadFailureHint } from "../../../../lib/api-client";
import { useCreditCatalogue } from "../../api/admin-get-credit-catalogue";
import { BodyDialog } from "./body-dialog";
import { CatalogueBodiesCard } from "./catalogue-bodies-card";
import { CatalogueReviewCard } from "./catalogue-review-card";
import { CatalogueTypesCard } from "./catalogue-types-card";
import { useDialogItem } from "./use-dialog-item";

/**
 * /admin/settings/credit-catalogue: the types waiting for review first, then the accrediting
 * bodies and the credit types, each kept once for every course.
 */
export function CreditCatalogueView() {
  const query = useCreditCatalogue();
  const adding = useDialogItem<never>();

  if (query.isPending) {
    return (
      <div role="status" aria-label="Loading the credit catalogue" className="grid gap-6">
        <Skeleton className="h-40 rounded-2xl" />
        <Skeleton className="h-56 rounded-2xl" />
      </div>
    );
  }
  if (query.isError) {
    return (
      <LoadError
        message={loadFailureHint(query.error, "The credit catalogue could not be loaded.")}
        onRetry={() => void query.refetch()}
      />
    );
  }
  const catalogue = query.data;
  if (!catalogue.bodies.length && !catalogue.types.length) {
    return (
      <>
        <EmptyState
          icon={<LibraryBigIcon />}
          title="Your credit catalogue is empty"
          description="Name each accrediting body and the credit it accredits once, here. Every course then offers that credit with its own amount, and a learner's credit of one type adds up across courses on their transcript."
          action={
            <Button onClick={() => adding.show()}>
              <PlusIcon aria-hidden="true" />
              Add accrediting body
            </Button>
          }
        />
        <BodyDialog open={adding.open} onOpenChange={adding.onOpenChange} />
      </>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <FirstUseHint catalogue={catalogue} />
      <CatalogueReviewCard catalogue={catalogue} />
      <CatalogueBodiesCard catalogue={catalogue} />
      <CatalogueTypesCard catalogue={catalogue} />
    </div>
  );
}

/** The next step while no course offers anything from the catalogue yet. */
function FirstUseHint({ catalogue }: { catalogue: CreditCatalogue }) {
  if (catalogue.types.some((t) => t.courses > 0)) return null;
  const next = catalogue.types.length
    ? "Next, offer them on a course: open the course, and under Accreditation choose Edit credit types."
    : "Next, add the credit types your bodies accredit, each named as the body writes it.";
  return (
    <p
      data-testid="catalogue-hint"
      className="flex items-start gap-2.5 rounded-xl border border-indigo-200 bg-indigo-50/70 px-4 py-3 text-sm text-indigo-950"
    >
      <LightbulbIcon className="mt-0.5 size-4 shrink-0 text-indigo-700" aria-hidden="true" />
      <span>
        <span className="font-medium">Getting started: </span>
        {next}
      </span>
    </p>
  );
}
