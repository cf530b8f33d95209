import { REVOKE_REASON_MAX, revokeCertificateBodySchema } from "@contract";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useRevokeCertificate } from "../api/revoke-certificate";

export type RevokeTarget = { id: string; courseTitle: string; learnerName: string };

/**
 * Revokes an issued certificate with a reason; the public page then shows it revoked and the
 * learner is emailed.
 */
export function RevokeCertificateDialog({
  target,
  onClose,
}: {
  target: RevokeTarget | null;
  onClose: () => void;
}) {
  const revoke = useRevokeCertificate();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string>();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const parsed = revokeCertificateBodySchema.safeParse({ reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    try {
      await revoke.mutateAsync({ id: target.id, reason: parsed.data.reason });
      toast({
        title: "Certificate revoked",
        description: `The certificate for ${target.courseTitle} now shows as revoked.`,
      });
      setReason("");
      setError(undefined);
      onClose();
    } catch (err) {
      toast({
        variant: "destructive",
        title: "Certificate not revoked",
        description: getErrorMessage(err) ?? "The certificate could not be revoked.",
      });
    }
  }

  return (
    <Dialog
      open={target !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Revoke certificate</DialogTitle>
          <DialogDescription>
            {target
              ? `${target.learnerName}'s certificate for ${target.courseTitle} will show as revoked to anyone who verifies it, and they are emailed the reason. This cannot be undone.`
              : "The certificate will show as revoked."}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void onSubmit(e)} className="grid gap-5" noValidate>
          <Field
            id="revoke-reason"
            label="Reason"
            error={error}
            hint="Shown on the public verification page and emailed to the learner."
          >
            <Textarea
              id="revoke-reason"
              value={reason}
              maxLength={REVOKE_REASON_MAX}
              onChange={(e) => {
                setReason(e.target.value);
                setError(undefined);
              }}
              {...fieldAria("revoke-reason", error, { hint: true })}
              required
            />
          </Field>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={revoke.isPending}>
              {revoke.isPending ? <Spinner /> : null}
              Revoke certificate
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
