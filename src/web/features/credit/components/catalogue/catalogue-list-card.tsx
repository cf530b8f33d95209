import type { LucideIcon } from "lucide-react";
import { PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../../components/ui/card";

/**
 * A card of the credit catalogue (accrediting bodies, credit types): its title and purpose,
 * the button that adds an item, and the items or what to add first. `dialogs` are the
 * card's add, edit and remove dialogs.
 */
export function CatalogueListCard({
  titleId,
  icon: Icon,
  title,
  description,
  addLabel,
  onAdd,
  empty,
  children,
  dialogs,
}: {
  titleId: string;
  icon: LucideIcon;
  title: string;
  description: string;
  addLabel: string;
  onAdd: () => void;
  /** Said instead of the list while it has no items. */
  empty: string | undefined;
  /** The items, as list entries. */
  children: ReactNode;
  dialogs: ReactNode;
}) {
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 flex-1 basis-64 gap-1.5">
          <CardTitle id={titleId} className="flex items-center gap-2">
            <Icon className="size-5 text-indigo-600" aria-hidden="true" />
            {title}
          </CardTitle>
          <CardDescription>{description}</CardDescription>
        </div>
        <Button variant="outline" size="sm" onClick={onAdd}>
          <PlusIcon aria-hidden="true" />
          {addLabel}
        </Button>
      </CardHeader>
      <CardContent>
        {empty ? (
          <p className="text-sm text-zinc-600">{empty}</p>
        ) : (
          <ul
            aria-label={title}
            className="divide-y divide-zinc-100 rounded-xl border border-zinc-200"
          >
            {children}
          </ul>
        )}
      </CardContent>
      {dialogs}
    </Card>
  );
}

/** An item's edit and remove buttons, named after it. */
export function CatalogueItemActions({
  name,
  onEdit,
  onRemove,
}: {
  name: string;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <div className="flex shrink-0 gap-1">
      <Button variant="ghost" size="icon-sm" aria-label={`Edit ${name}`} onClick={onEdit}>
        <PencilIcon aria-hidden="true" />
      </Button>
      <Button variant="ghost" size="icon-sm" aria-label={`Remove ${name}`} onClick={onRemove}>
        <Trash2Icon aria-hidden="true" />
      </Button>
    </div>
  );
}
