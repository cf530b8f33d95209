import type { ErrorCode } from "@contract";
import { useState } from "react";
import type { z } from "zod";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../../lib/api-client";
import { useSingleSubmit } from "../../../../lib/use-single-submit";
import { firstErrors } from "./form-errors";

/** What a catalogue form asks of its save mutation. */
interface CatalogueSaveMutation<Body> {
  mutateAsync(
    variables: { id?: string; body: Body; idempotencyKey: string },
    options: { onSuccess: () => void; onError: (error: unknown) => void },
  ): Promise<unknown>;
}

/**
 * A catalogue form's save (accrediting body, credit type): the values checked against the
 * contract's schema first, each field showing its first refusal; then sent once however
 * often the form is submitted. A name already in the catalogue is refused under Name, any
 * other refusal above the buttons; a saved item is announced and the form closed.
 */
export function useCatalogueSave<S extends z.ZodType>({
  schema,
  save,
  id,
  savedTitle,
  failure,
  nameTaken,
  onDone,
}: {
  /** The contract's schema of the request body. */
  schema: S;
  save: CatalogueSaveMutation<z.output<S>>;
  /** The item edited; undefined while adding one. */
  id: string | undefined;
  savedTitle: string;
  /** Said when the refusal carries no message of its own. */
  failure: string;
  /** The API's code for a name the catalogue already holds. */
  nameTaken: ErrorCode;
  onDone: () => void;
}) {
  type FieldName = keyof z.output<S> & string;
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const single = useSingleSubmit();

  /** A field edited since the last save shows no error from it. */
  const edited = (field: FieldName) =>
    setErrors(({ [field]: _, ...rest }) => rest as Partial<Record<FieldName, string>>);

  function submit(values: z.input<S>) {
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      setErrors(firstErrors<FieldName>(parsed.error.issues));
      return;
    }
    setErrors({});
    setServerError(null);
    void single((idempotencyKey) =>
      save
        .mutateAsync(
          { id, body: parsed.data, idempotencyKey },
          {
            onSuccess: () => {
              toast({ title: savedTitle });
              onDone();
            },
            onError: (error) => {
              const message = getErrorMessage(error) ?? failure;
              if (isApiError(error, nameTaken)) {
                setErrors({ name: message } as Partial<Record<FieldName, string>>);
              } else setServerError(message);
            },
          },
        )
        // The refusal is shown by onError above.
        .catch(() => undefined),
    );
  }

  return { errors, serverError, edited, submit };
}
