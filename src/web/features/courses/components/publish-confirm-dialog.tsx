import { type CoursePublishCheck, publishQuerySchema } from "@contract";
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

const reasonSchema = publishQuerySchema.shape.creditLengthReason.unwrap();
const REASON_MAX = 500;

/**
 * Publishing a course that asks to confirm: a credit course whose modules are completed
 * manually, or one offering more credit than its content's length supports, which needs the
 * reason the audit trail keeps. The server's reasons are shown; the administrator confirms
 * or goes back to change the course.
 */
export function PublishConfirmDialog({
  checks,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  /** What publishing asks to confirm (the server's checks, or its refusal). */
  checks: CoursePublishCheck[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Publishes, with the reason when the credit exceeds the content's length. */
  onConfirm: (creditLengthReason: string | undefined) => void;
  pending: boolean;
}) {
  const needsReason = checks.some((c) => c.key === "credit-length");
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>
            {needsReason
              ? "Publish with more credit than the content supports?"
              : "Publish with manual completion?"}
          </DialogTitle>
          <DialogDescription asChild>
            <div className="grid gap-2">
              {checks.map((check) => (
                <p key={check.message}>{check.message}</p>
              ))}
            </div>
          </DialogDescription>
        </DialogHeader>
        {open ? (
          <ConfirmForm needsReason={needsReason} onConfirm={onConfirm} pending={pending} />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function ConfirmForm({
  needsReason,
  onConfirm,
  pending,
}: {
  needsReason: boolean;
  onConfirm: (creditLengthReason: string | undefined) => void;
  pending: boolean;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!needsReason) {
      onConfirm(undefined);
      return;
    }
    const parsed = reasonSchema.safeParse(reason);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    onConfirm(parsed.data);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Confirm publishing" className="grid gap-5">
      {needsReason ? (
        <Field
          id="publish-credit-reason"
          label="Reason for the credit"
          hint={`Kept on the audit trail with the publishing; up to ${REASON_MAX} characters.`}
          error={error}
        >
          <Textarea
            id="publish-credit-reason"
            rows={3}
            value={reason}
            maxLength={REASON_MAX}
            placeholder="e.g. The activity includes 30 minutes of assigned reading beyond the videos."
            onChange={(e) => setReason(e.target.value)}
            {...fieldAria("publish-credit-reason", error, { hint: true })}
          />
        </Field>
      ) : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? <Spinner /> : null}
          Publish anyway
        </Button>
      </DialogFooter>
    </form>
  );
}
