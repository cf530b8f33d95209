import { IMAGE_MAX_SIDE_PX, SIGNATURE_MAX_BYTES } from "@contract";
import { Trash2Icon } from "lucide-react";
import { type ChangeEvent, useId, useState } from "react";
import { Button } from "../../../../components/ui/button";
import { FieldError } from "../../../../components/ui/field";
import { Label } from "../../../../components/ui/label";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { useRemoveSignature } from "../../api/admin-remove-signature";
import { useUploadSignature } from "../../api/admin-upload-signature";
import { CREDIT_ADMIN_TOASTS } from "./admin-labels";

const SIGNATURE_TYPES = ["image/png", "image/jpeg"];
const kilobytes = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

/** Where the server serves a stored signature, for an <img>. */
export const signatureUrl = (signatureId: string) =>
  `/api/signatures/${encodeURIComponent(signatureId)}`;

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}

/**
 * The responsible official's signature printed on certificates. It is stored as soon as it is
 * chosen, apart from the other settings, so the preview shows what certificates will print.
 */
export function SignatureField({
  courseId,
  signatureId,
  officialName,
}: {
  courseId: string;
  signatureId: string | null;
  officialName: string;
}) {
  const inputId = useId();
  const upload = useUploadSignature();
  const remove = useRemoveSignature();
  const [error, setError] = useState<string | null>(null);
  const busy = upload.isPending || remove.isPending;

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const file = input.files?.[0];
    setError(null);
    if (!file) return;
    // The server checks the bytes too; checking here first saves sending a wrong file.
    if (!SIGNATURE_TYPES.includes(file.type)) {
      setError("Choose a PNG or JPEG image.");
      input.value = "";
      return;
    }
    if (file.size > SIGNATURE_MAX_BYTES) {
      setError(
        `The image is ${kilobytes(file.size)}: it must be at most ${kilobytes(SIGNATURE_MAX_BYTES)}.`,
      );
      input.value = "";
      return;
    }
    try {
      const dataUrl = await readAsDataUrl(file);
      await upload.mutateAsync({ courseId, dataUrl });
      toast({ title: CREDIT_ADMIN_TOASTS.signatureSaved });
    } catch (failure) {
      setError(getErrorMessage(failure) ?? "The signature could not be uploaded.");
    } finally {
      input.value = "";
    }
  }

  async function onRemove() {
    setError(null);
    try {
      await remove.mutateAsync(courseId);
      toast({ title: CREDIT_ADMIN_TOASTS.signatureRemoved });
    } catch (failure) {
      setError(getErrorMessage(failure) ?? "The signature could not be removed.");
    }
  }

  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  return (
    <div className="grid min-w-0 gap-3 rounded-xl border border-zinc-200 p-3 sm:p-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 grid-cols-1 gap-2">
          <Label htmlFor={inputId}>Signature image</Label>
          <input
            id={inputId}
            type="file"
            accept="image/png,image/jpeg"
            disabled={busy}
            className="max-w-full text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
            aria-describedby={error ? `${hintId} ${errorId}` : hintId}
            aria-invalid={error ? true : undefined}
            onChange={(event) => void onFile(event)}
          />
          <p id={hintId} className="text-xs text-zinc-600">
            PNG or JPEG, at most {kilobytes(SIGNATURE_MAX_BYTES)} and {IMAGE_MAX_SIDE_PX} ×{" "}
            {IMAGE_MAX_SIDE_PX} pixels; a transparent background prints best. Saved as soon as it is
            chosen.
          </p>
        </div>
        {signatureId ? (
          <div className="grid shrink-0 justify-items-start gap-2 sm:justify-items-end">
            <div className="flex h-20 w-48 max-w-full items-center justify-center rounded-lg border border-zinc-200 bg-white p-2">
              <img
                src={signatureUrl(signatureId)}
                alt={officialName ? `Signature of ${officialName}` : "Signature on file"}
                data-testid="signature-preview"
                className="max-h-full max-w-full object-contain"
              />
            </div>
            <Button variant="outline" size="sm" disabled={busy} onClick={() => void onRemove()}>
              {remove.isPending ? <Spinner /> : <Trash2Icon aria-hidden="true" />}
              Remove signature
            </Button>
          </div>
        ) : (
          <p className="text-sm text-zinc-600 sm:text-right">No signature yet.</p>
        )}
      </div>
      {upload.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-zinc-700">
          <Spinner className="size-4 text-indigo-600" />
          Uploading the signature…
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
