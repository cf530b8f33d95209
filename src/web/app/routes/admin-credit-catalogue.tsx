import { ArrowLeftIcon } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../components/page-header";
import { Button } from "../../components/ui/button";
import { CreditCatalogueView } from "../../features/credit/components/catalogue/credit-catalogue-view";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /admin/settings/credit-catalogue: the organisation's accrediting bodies and credit types. */
export function AdminCreditCatalogueRoute() {
  useDocumentTitle("Credit catalogue");
  return (
    <div className="grid grid-cols-1 gap-6 sm:gap-8">
      <div className="grid gap-4">
        <Button asChild variant="ghost" size="sm" className="-ml-2 w-fit text-zinc-600">
          <Link to="/admin/settings">
            <ArrowLeftIcon aria-hidden="true" />
            Settings
          </Link>
        </Button>
        <PageHeader
          title="Credit catalogue"
          description="The bodies that accredit you and the credit types you offer, kept once for every course."
        />
      </div>
      <CreditCatalogueView />
    </div>
  );
}
