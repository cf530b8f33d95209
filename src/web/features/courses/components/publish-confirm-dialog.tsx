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
import { Spinner } from "../../../components/ui/spinner";

/**
 * Publishing a course that offers credit while its modules are completed manually: the
 * reason is shown, and the administrator confirms or goes back to change the completion.
 */
export function PublishConfirmDialog({
  reason,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  /** Why publishing asks to confirm (the server's message). */
  reason: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  pending: boolean;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Publish with manual completion?</DialogTitle>
          <DialogDescription>{reason}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Cancel</Button>
          </DialogClose>
          <Button disabled={pending} onClick={onConfirm}>
            {pending ? <Spinner /> : null}
            Publish anyway
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
