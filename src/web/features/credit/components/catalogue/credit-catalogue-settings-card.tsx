import { ArrowRightIcon, LibraryBigIcon } from "lucide-react";
import { Link } from "react-router";
import { SettingsCard } from "../../../../components/settings-card";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { plural } from "../../../../lib/format";
import { useCreditCatalogue } from "../../api/admin-get-credit-catalogue";
import { CREDIT_CATALOGUE_PATH } from "../../catalogue-labels";

/** The Settings card that leads to the credit catalogue, with what it holds. */
export function CreditCatalogueSettingsCard() {
  return (
    <SettingsCard
      icon={LibraryBigIcon}
      title="Credit catalogue"
      description="The accrediting bodies that accredit you and the credit types you offer, named once for every course."
      query={useCreditCatalogue()}
      loadingLabel="Loading the credit catalogue"
      loadFailure="The credit catalogue could not be loaded."
    >
      {(catalogue) => {
        const review = catalogue.types.filter((t) => t.needsReview).length;
        return (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <p
              className="flex flex-wrap items-center gap-2 text-sm text-zinc-700"
              data-testid="catalogue-summary"
            >
              {plural(catalogue.bodies.length, "accrediting body", "accrediting bodies")} ·{" "}
              {plural(catalogue.types.length, "credit type")}
              {review ? <Badge variant="warning">{review} to review</Badge> : null}
            </p>
            <Button asChild variant="outline" className="w-fit">
              <Link to={CREDIT_CATALOGUE_PATH}>
                Open the credit catalogue
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          </div>
        );
      }}
    </SettingsCard>
  );
}
