import {
  EVALUATION_ITEMS_MAX,
  type EvaluationFormBody,
  type EvaluationItem,
  evaluationFormBodySchema,
  evaluationItemKindSchema,
} from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { type QueryKey, type UseQueryOptions, useQuery } from "@tanstack/react-query";
import { ArrowDownIcon, ArrowUpIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { type ReactNode, useRef, useState } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import { z } from "zod";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../../components/ui/dialog";
import { Field, FieldError, fieldAria } from "../../../../components/ui/field";
import { Input, inputClassName } from "../../../../components/ui/input";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { cn } from "../../../../lib/utils";
import { EVALUATION_KIND_LABELS } from "./admin-labels";
import { FormAlert } from "./form-alert";

/**
 * The form keeps an item's stored id apart (blank for a new item) so the field array's own
 * keys never mix with it; saving sends it back as `id`, which keeps the answers with the item.
 */
const itemsEditorSchema = z
  .object({
    items: z.array(
      z.object({
        itemId: z.string(),
        kind: evaluationItemKindSchema,
        text: z.string(),
        required: z.boolean(),
      }),
    ),
  })
  .transform(
    (v): z.input<typeof evaluationFormBodySchema> => ({
      items: v.items.map(({ itemId, ...item }) => (itemId ? { id: itemId, ...item } : item)),
    }),
  )
  .pipe(evaluationFormBodySchema);
type EditorInput = z.input<typeof itemsEditorSchema>;
type EditorItem = EditorInput["items"][number];

/** A short name for an item in a button's label: its number and the start of its text. */
function itemName(index: number, text: string | undefined): string {
  const trimmed = (text ?? "").trim();
  if (!trimmed) return `item ${index + 1}`;
  const short = trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed;
  return `item ${index + 1}, “${short}”`;
}

/**
 * The dialog of a form the course's learners answer (the evaluation, a form step): its title
 * and what the provider does with the answers, then, once the form is read, `children` (an
 * editor; `close` ends the dialog).
 */
export function FormItemsDialog<F extends { items: EvaluationItem[] }, K extends QueryKey>({
  label,
  description,
  trigger,
  formQueryOptions,
  children,
}: {
  /** The form's name as a title: "Evaluation". */
  label: string;
  description: ReactNode;
  trigger: ReactNode;
  /** The form, read where it is shown (a result handed down can miss its update). */
  formQueryOptions: UseQueryOptions<F, Error, F, K>;
  children: (form: F, close: () => void) => ReactNode;
}) {
  const form = useQuery(formQueryOptions);
  // Opened through a Radix trigger, so closing it returns the focus to the button.
  const [open, setOpen] = useState(false);
  const name = label.toLowerCase();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Edit {name}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {form.isPending ? (
          <div className="grid gap-3" aria-hidden="true">
            <Skeleton className="h-28 rounded-xl" />
            <Skeleton className="h-28 rounded-xl" />
          </div>
        ) : form.isError ? (
          <LoadError
            message={getErrorMessage(form.error) ?? `The ${name} could not be loaded.`}
            onRetry={() => void form.refetch()}
          />
        ) : (
          children(form.data, () => setOpen(false))
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Edits a form's items: their kind, their words, whether each must be answered, the order.
 * `children` are settings of the whole form, shown above the items and saved with them.
 */
export function FormItemsEditor({
  label,
  idPrefix,
  items: savedItems,
  savedToast,
  onSave,
  onDone,
  children,
}: {
  /** The form's name as a title: "Evaluation". */
  label: string;
  /** Names the fields and rows of this form's editor: "evaluation". */
  idPrefix: string;
  items: EvaluationItem[];
  savedToast: string;
  onSave: (items: EvaluationFormBody["items"]) => Promise<unknown>;
  onDone: () => void;
  children?: ReactNode;
}) {
  const name = label.toLowerCase();
  const [serverError, setServerError] = useState<string | null>(null);
  const [moved, setMoved] = useState("");
  const buttons = useRef(new Map<string, HTMLButtonElement | null>());
  const addButton = useRef<HTMLButtonElement>(null);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<EditorInput, unknown, EvaluationFormBody>({
    resolver: zodResolver(itemsEditorSchema),
    defaultValues: {
      items: savedItems.map((item) => ({
        itemId: item.id,
        kind: item.kind,
        text: item.text,
        required: item.required,
      })),
    },
  });
  const items = useFieldArray({ control, name: "items" });
  const typed = useWatch({ control, name: "items" });
  const itemsError = errors.items?.message ?? errors.items?.root?.message;
  const count = items.fields.length;

  const onSubmit = handleSubmit(async (body) => {
    setServerError(null);
    try {
      await onSave(body.items);
      toast({ title: savedToast });
      onDone();
    } catch (error) {
      setServerError(getErrorMessage(error) ?? `The ${name} could not be saved.`);
    }
  });

  const focusButton = (key: string) => {
    // After the list re-renders: the moved row's button may now be disabled at an edge.
    requestAnimationFrame(() => buttons.current.get(key)?.focus());
  };

  function move(index: number, to: number) {
    const key = items.fields[index]!.id;
    items.move(index, to);
    setMoved(`Moved ${itemName(index, typed[index]?.text)} to position ${to + 1} of ${count}.`);
    const edge = to === 0 ? "down" : to === count - 1 ? "up" : to < index ? "up" : "down";
    focusButton(`${key}-${edge}`);
  }

  function remove(index: number) {
    const next = items.fields[index + 1] ?? items.fields[index - 1];
    items.remove(index);
    setMoved(`Removed ${itemName(index, typed[index]?.text)}.`);
    if (next) focusButton(`${next.id}-remove`);
    else requestAnimationFrame(() => addButton.current?.focus());
  }

  const add = (kind: EditorItem["kind"]) =>
    items.append(
      { itemId: "", kind, text: "", required: kind === "likert" },
      { shouldFocus: true },
    );

  const setButton = (key: string) => (node: HTMLButtonElement | null) => {
    if (node) buttons.current.set(key, node);
    else buttons.current.delete(key);
  };

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={`Edit ${name}`}
      className="grid min-w-0 grid-cols-1 gap-5"
    >
      {children}
      <p role="status" className="sr-only">
        {moved}
      </p>
      <ol className="grid min-w-0 gap-3" aria-label={`${label} items`}>
        {items.fields.map((field, index) => {
          const prefix = `${idPrefix}-item-${index}`;
          const error = errors.items?.[index];
          const name = itemName(index, typed[index]?.text);
          const kind = typed[index]?.kind ?? field.kind;
          return (
            <li
              key={field.id}
              data-testid={`${idPrefix}-item-row`}
              className="grid min-w-0 gap-3 rounded-xl border border-zinc-200 p-3 sm:p-4"
            >
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="flex items-center gap-2 text-sm font-medium text-zinc-900">
                  Item {index + 1}
                  <Badge variant={kind === "likert" ? "default" : "secondary"}>
                    {EVALUATION_KIND_LABELS[kind]}
                  </Badge>
                  {field.itemId ? null : <Badge variant="outline">New</Badge>}
                </p>
                <div className="ml-auto flex items-center gap-1">
                  <Button
                    ref={setButton(`${field.id}-up`)}
                    variant="ghost"
                    size="icon-sm"
                    className="text-zinc-600"
                    aria-label={`Move ${name} up`}
                    disabled={index === 0}
                    onClick={() => move(index, index - 1)}
                  >
                    <ArrowUpIcon aria-hidden="true" />
                  </Button>
                  <Button
                    ref={setButton(`${field.id}-down`)}
                    variant="ghost"
                    size="icon-sm"
                    className="text-zinc-600"
                    aria-label={`Move ${name} down`}
                    disabled={index === count - 1}
                    onClick={() => move(index, index + 1)}
                  >
                    <ArrowDownIcon aria-hidden="true" />
                  </Button>
                  <Button
                    ref={setButton(`${field.id}-remove`)}
                    variant="ghost"
                    size="icon-sm"
                    className="text-zinc-600 hover:text-red-700"
                    aria-label={`Remove ${name}`}
                    disabled={count <= 1}
                    onClick={() => remove(index)}
                  >
                    <Trash2Icon aria-hidden="true" />
                  </Button>
                </div>
              </div>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
                <Field id={`${prefix}-kind`} label="Kind">
                  <select
                    id={`${prefix}-kind`}
                    // A select matches :read-only: keep it looking editable.
                    className={cn(inputClassName, "read-only:bg-white read-only:text-zinc-900")}
                    {...register(`items.${index}.kind`)}
                  >
                    {evaluationItemKindSchema.options.map((k) => (
                      <option key={k} value={k}>
                        {EVALUATION_KIND_LABELS[k]}
                      </option>
                    ))}
                  </select>
                </Field>
                <Field
                  id={`${prefix}-text`}
                  label={kind === "likert" ? "Statement to rate" : "Question"}
                  error={error?.text?.message}
                >
                  <Input
                    id={`${prefix}-text`}
                    placeholder={
                      kind === "likert" ? "The content was relevant." : "What could be improved?"
                    }
                    {...fieldAria(`${prefix}-text`, error?.text)}
                    {...register(`items.${index}.text`)}
                  />
                </Field>
              </div>
              <label className="flex w-fit cursor-pointer items-center gap-2 text-sm text-zinc-800">
                <input
                  type="checkbox"
                  className="size-4 accent-indigo-600"
                  {...register(`items.${index}.required`)}
                />
                Learners must answer it
              </label>
            </li>
          );
        })}
      </ol>
      <FieldError>{itemsError}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button
          ref={addButton}
          variant="outline"
          size="sm"
          disabled={count >= EVALUATION_ITEMS_MAX}
          onClick={() => add("likert")}
        >
          <PlusIcon aria-hidden="true" />
          Add rating item
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={count >= EVALUATION_ITEMS_MAX}
          onClick={() => add("text")}
        >
          <PlusIcon aria-hidden="true" />
          Add text item
        </Button>
      </div>
      <FormAlert message={serverError} />
      <DialogFooter className="pt-1">
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? <Spinner /> : null}
          Save {name}
        </Button>
      </DialogFooter>
    </form>
  );
}
