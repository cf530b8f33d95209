import { LibraryBigIcon, LightbulbIcon, PlusIcon } from "lucide-react";
import { useState } from "react";
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
      <CatalogueReviewCard catalogue={catalogue} />
      <FirstUseHint />
      <CatalogueBodiesCard catalogue={catalogue} />
      <CatalogueTypesCard catalogue={catalogue} />
    </div>
  );
}

const HINT_KEY = "credo.catalogue-hint-dismissed";

function hintDismissed(): boolean {
  try {
    return localStorage.getItem(HINT_KEY) === "1";
  } catch {
    // Storage may be unavailable (private mode): the hint shows, and can still be closed.
    return false;
  }
}

/** How the catalogue works, until the administrator closes it (remembered in this browser). */
function FirstUseHint() {
  const [shown, setShown] = useState(() => !hintDismissed());
  if (!shown) return null;
  function dismiss() {
    setShown(false);
    try {
      localStorage.setItem(HINT_KEY, "1");
    } catch {
      // Not kept; the hint stays closed on this page.
    }
  }
  return (
    <section
      aria-labelledby="catalogue-hint-title"
      data-testid="catalogue-hint"
      className="grid gap-3 rounded-2xl border border-indigo-200 bg-indigo-50/70 p-4 text-sm text-indigo-950 sm:p-5"
    >
      <h2 id="catalogue-hint-title" className="flex items-center gap-2 font-semibold">
        <LightbulbIcon className="size-4 shrink-0 text-indigo-700" aria-hidden="true" />
        How the catalogue works
      </h2>
      <ol className="grid list-decimal gap-1 pl-5">
        <li>Add each accrediting body, with the provider number it gave you.</li>
        <li>Add the credit types it accredits, named as the body writes them.</li>
        <li>
          Offer them on a course under Accreditation, Edit credit types, each with the course's own
          amount.
        </li>
      </ol>
      <Button variant="outline" size="sm" className="w-fit bg-white" onClick={dismiss}>
        Got it
      </Button>
    </section>
  );
}
