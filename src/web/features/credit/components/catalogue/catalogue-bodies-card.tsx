import type { CatalogueBody, CreditCatalogue } from "@contract";
import { LandmarkIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { Button } from "../../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../../components/ui/card";
import { toast } from "../../../../components/ui/use-toast";
import { plural } from "../../../../lib/format";
import { useRemoveCatalogueBody } from "../../api/admin-remove-catalogue-body";
import { CATALOGUE_TOASTS } from "../../catalogue-labels";
import { BodyDialog } from "./body-dialog";
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
    <Card role="region" aria-labelledby="catalogue-bodies-title">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle id="catalogue-bodies-title" className="flex items-center gap-2">
            <LandmarkIcon className="size-5 text-indigo-600" aria-hidden="true" />
            Accrediting bodies
          </CardTitle>
          <CardDescription>
            Who accredits you, with the provider number each gave you and the length of its credit
            hour.
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => editing.show()}>
          <PlusIcon aria-hidden="true" />
          Add body
        </Button>
      </CardHeader>
      <CardContent>
        {catalogue.bodies.length === 0 ? (
          <p className="text-sm text-zinc-600">
            No accrediting body yet: add the bodies that accredit you before their credit types.
          </p>
        ) : (
          <ul
            aria-label="Accrediting bodies"
            className="divide-y divide-zinc-100 rounded-xl border border-zinc-200"
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
                <div className="flex shrink-0 gap-1">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Edit ${body.name}`}
                    onClick={() => editing.show(body)}
                  >
                    <PencilIcon aria-hidden="true" />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Remove ${body.name}`}
                    onClick={() => removing.show(body)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
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
    </Card>
  );
}
