import {
  type CatalogueType,
  type CreditCatalogue,
  creditAmountText,
  REGULATOR_NAMES,
} from "@contract";
import { AwardIcon } from "lucide-react";
import { Badge } from "../../../../components/ui/badge";
import { toast } from "../../../../components/ui/use-toast";
import { plural } from "../../../../lib/format";
import { useRemoveCatalogueType } from "../../api/admin-remove-catalogue-type";
import { CATALOGUE_TOASTS } from "../../catalogue-labels";
import { CatalogueItemActions, CatalogueListCard } from "./catalogue-list-card";
import { RemoveDialog } from "./remove-dialog";
import { TypeDialog } from "./type-dialog";
import { useDialogItem } from "./use-dialog-item";

/** The catalogue's credit types, each added, edited and removed here. */
export function CatalogueTypesCard({ catalogue }: { catalogue: CreditCatalogue }) {
  const editing = useDialogItem<CatalogueType>();
  const removing = useDialogItem<CatalogueType>();
  const remove = useRemoveCatalogueType();

  return (
    <CatalogueListCard
      titleId="catalogue-types-title"
      icon={AwardIcon}
      title="Credit types"
      description="Each named as its body writes it. Courses offer them with their own amounts, and a learner's credit of one type adds up across courses."
      addLabel="Add credit type"
      onAdd={() => editing.show()}
      empty={
        catalogue.types.length === 0
          ? "No credit type yet: add the credit your bodies accredit, then offer it on courses."
          : undefined
      }
      dialogs={
        <>
          <TypeDialog
            open={editing.open}
            onOpenChange={editing.onOpenChange}
            type={editing.item}
            bodies={catalogue.bodies}
          />
          <RemoveDialog
            open={removing.open}
            name={removing.item?.name ?? ""}
            description="It leaves the catalogue. A type that courses offer stays: merge it into another instead."
            onOpenChange={removing.onOpenChange}
            remove={async () => {
              await remove.mutateAsync(removing.item!.id);
              toast({ title: CATALOGUE_TOASTS.typeRemoved });
            }}
          />
        </>
      }
    >
      {catalogue.types.map((type) => (
        <TypeRow
          key={type.id}
          type={type}
          catalogue={catalogue}
          onEdit={() => editing.show(type)}
          onRemove={() => removing.show(type)}
        />
      ))}
    </CatalogueListCard>
  );
}

function TypeRow({
  type,
  catalogue,
  onEdit,
  onRemove,
}: {
  type: CatalogueType;
  catalogue: CreditCatalogue;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const body = catalogue.bodies.find((b) => b.id === type.bodyId);
  const facts = [
    body?.name ?? "No accrediting body",
    `prints “${creditAmountText(1, type.name, type.singularName)}”`,
    type.courses ? `offered by ${plural(type.courses, "course")}` : "not offered yet",
  ];
  const rules = [
    type.licenceRequired ? "Licence required" : null,
    type.fieldsOfStudyRequired ? "Fields of study required" : null,
    ...type.regulators.map((r) => `Reported to ${REGULATOR_NAMES[r]}`),
  ].filter((rule): rule is string => rule !== null);
  return (
    <li data-testid="catalogue-type" className="flex items-start justify-between gap-3 px-4 py-3">
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-medium break-words text-zinc-950">{type.name}</span>
          {type.needsReview ? <Badge variant="warning">Review</Badge> : null}
          {type.profession ? (
            <Badge variant="secondary">{type.profession}</Badge>
          ) : (
            <Badge variant="outline">No profession</Badge>
          )}
        </p>
        <p className="text-sm break-words text-zinc-600">{facts.join(" · ")}</p>
        {rules.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label={`Rules of ${type.name}`}>
            {rules.map((rule) => (
              <li
                key={rule}
                className="rounded-full border border-zinc-200 bg-zinc-50 px-2 py-0.5 text-xs text-zinc-700"
              >
                {rule}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <CatalogueItemActions name={type.name} onEdit={onEdit} onRemove={onRemove} />
    </li>
  );
}
