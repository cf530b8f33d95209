import { useState } from "react";
import { Button } from "../../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../../components/ui/dialog";
import { Spinner } from "../../../../components/ui/spinner";
import { getErrorMessage } from "../../../../lib/api-client";
import { FormAlert } from "../admin/form-alert";

/**
 * Asks before removing a body or type from the catalogue. The server refuses while it is in
 * use (a type names the body, a course offers the type): its reason shows here, and the
 * dialog stays open so the administrator reads it.
 */
export function RemoveDialog({
  open,
  name,
  description,
  onOpenChange,
  remove,
}: {
  open: boolean;
  /** What is removed, as the title names it. */
  name: string;
  description: string;
  onOpenChange: (open: boolean) => void;
  /** Removes it; resolves once removed, rejects with the server's refusal. */
  remove: () => Promise<void>;
}) {
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);

  function onOpen(open: boolean) {
    if (!open) setServerError(null);
    onOpenChange(open);
  }

  async function onRemove() {
    setPending(true);
    setServerError(null);
    try {
      await remove();
      onOpen(false);
    } catch (error) {
      setServerError(getErrorMessage(error) ?? "It could not be removed.");
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpen}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Remove {name}?</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <FormAlert message={serverError} />
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button variant="destructive" disabled={pending} onClick={() => void onRemove()}>
            {pending ? <Spinner /> : null}
            Remove
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
