import type { CatalogueBody, CreditCatalogue } from "@contract";
import { LandmarkIcon } from "lucide-react";
import { toast } from "../../../../components/ui/use-toast";
import { plural } from "../../../../lib/format";
import { useRemoveCatalogueBody } from "../../api/admin-remove-catalogue-body";
import { CATALOGUE_TOASTS } from "../../catalogue-labels";
import { BodyDialog } from "./body-dialog";
import { CatalogueItemActions, CatalogueListCard } from "./catalogue-list-card";
import { RemoveDialog } from "./remove-dialog";
import { useDialogItem } from "./use-dialog-item";

/** "Provider no. P-0421 · 60-minute credit hour · 2 credit types" */
const bodyFacts = (body: CreditCatalogue["bodies"][number]) =>
  [
    body.providerNumber ? `Provider no. ${body.providerNumber}` : "No provider number",
    `${body.minutesPerHour}-minute credit hour`,
    plural(body.types, "credit type"),
  ].join(" · ");

/** The catalogue's accrediting bodies, each added, edited and removed here. */
export function CatalogueBodiesCard({ catalogue }: { catalogue: CreditCatalogue }) {
  const editing = useDialogItem<CatalogueBody>();
  const removing = useDialogItem<CatalogueBody>();
  const remove = useRemoveCatalogueBody();

  return (
    <CatalogueListCard
      titleId="catalogue-bodies-title"
      icon={LandmarkIcon}
      title="Accrediting bodies"
      description="Who accredits you, with the provider number each gave you and the length of its credit hour."
      addLabel="Add body"
      onAdd={() => editing.show()}
      empty={
        catalogue.bodies.length === 0
          ? "No accrediting body yet: add the bodies that accredit you before their credit types."
          : undefined
      }
      dialogs={
        <>
          <BodyDialog open={editing.open} onOpenChange={editing.onOpenChange} body={editing.item} />
          <RemoveDialog
            open={removing.open}
            name={removing.item?.name ?? ""}
            description="It leaves the catalogue. A body that a credit type names stays until that type is changed or removed."
            onOpenChange={removing.onOpenChange}
            remove={async () => {
              await remove.mutateAsync(removing.item!.id);
              toast({ title: CATALOGUE_TOASTS.bodyRemoved });
            }}
          />
        </>
      }
    >
      {catalogue.bodies.map((body) => (
        <li
          key={body.id}
          data-testid="catalogue-body"
          className="flex items-center justify-between gap-3 px-4 py-3"
        >
          <div className="grid min-w-0 gap-0.5">
            <p className="font-medium break-words text-zinc-950">{body.name}</p>
            <p className="text-sm break-words text-zinc-600">{bodyFacts(body)}</p>
          </div>
          <CatalogueItemActions
            name={body.name}
            onEdit={() => editing.show(body)}
            onRemove={() => removing.show(body)}
          />
        </li>
      ))}
    </CatalogueListCard>
  );
}
