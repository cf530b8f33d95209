import { REGULATOR_NAMES, type Regulator, type ReportFile } from "@contract";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useSubmitReportFile } from "../api/submit-report-file";

/** What marking a file of learners' claims as submitted does to them, in one sentence. */
function claimsReportedText(claims: number): string {
  return claims === 1
    ? "Its claim then counts as reported, and the next file leaves it out."
    : `Its ${claims} claims then count as reported, and the next file leaves them out.`;
}

/** Confirms that a file was uploaded to the regulator: its claims then count as reported. */
export function SubmitFileDialog({
  regulator,
  file,
  onClose,
}: {
  regulator: Regulator;
  file: ReportFile | null;
  onClose: () => void;
}) {
  const submit = useSubmitReportFile();
  // One key per file the dialog is opened for.
  const single = useSingleSubmit(file?.id);
  return (
    <Dialog open={file !== null} onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Mark as submitted?</DialogTitle>
          <DialogDescription>
            Do this once {file?.fileName} is uploaded to {REGULATOR_NAMES[regulator]}.{" "}
            {file?.kind === "activities"
              ? "The list then shows when its activity record was sent."
              : claimsReportedText(file?.rowCount ?? 0)}
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={submit.isPending}
            onClick={() => {
              if (!file) return;
              void single((idempotencyKey) =>
                submit
                  .mutateAsync(
                    { regulator, fileId: file.id, idempotencyKey },
                    {
                      onSuccess: () => {
                        toast({ title: "Marked as submitted", description: file.fileName });
                        onClose();
                      },
                      onError: (error) =>
                        toast({
                          variant: "destructive",
                          title: "Could not mark the file",
                          description: getErrorMessage(error) ?? "Please try again.",
                        }),
                    },
                  )
                  // The refusal is shown by onError above.
                  .catch(() => undefined),
              );
            }}
          >
            {submit.isPending ? <Spinner /> : null}
            Mark as submitted
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
