import {
  type CatalogueType,
  type CreditCatalogue,
  creditAmountText,
  REGULATOR_NAMES,
} from "@contract";
import { AwardIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { Badge } from "../../../../components/ui/badge";
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
import { useRemoveCatalogueType } from "../../api/admin-remove-catalogue-type";
import { CATALOGUE_TOASTS } from "../../catalogue-labels";
import { RemoveDialog } from "./remove-dialog";
import { TypeDialog } from "./type-dialog";
import { useDialogItem } from "./use-dialog-item";

/** The catalogue's credit types, each added, edited and removed here. */
export function CatalogueTypesCard({ catalogue }: { catalogue: CreditCatalogue }) {
  const editing = useDialogItem<CatalogueType>();
  const removing = useDialogItem<CatalogueType>();
  const remove = useRemoveCatalogueType();

  return (
    <Card role="region" aria-labelledby="catalogue-types-title">
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle id="catalogue-types-title" className="flex items-center gap-2">
            <AwardIcon className="size-5 text-indigo-600" aria-hidden="true" />
            Credit types
          </CardTitle>
          <CardDescription>
            Each named as its body writes it. Courses offer them with their own amounts, and a
            learner's credit of one type adds up across courses.
          </CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={() => editing.show()}>
          <PlusIcon aria-hidden="true" />
          Add credit type
        </Button>
      </CardHeader>
      <CardContent>
        {catalogue.types.length === 0 ? (
          <p className="text-sm text-zinc-600">
            No credit type yet: add the credit your bodies accredit, then offer it on courses.
          </p>
        ) : (
          <ul
            aria-label="Credit types"
            className="divide-y divide-zinc-100 rounded-xl border border-zinc-200"
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
          </ul>
        )}
      </CardContent>
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
    </Card>
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
      <div className="flex shrink-0 gap-1">
        <Button variant="ghost" size="icon-sm" aria-label={`Edit ${type.name}`} onClick={onEdit}>
          <PencilIcon aria-hidden="true" />
        </Button>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label={`Remove ${type.name}`}
          onClick={onRemove}
        >
          <Trash2Icon aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}
