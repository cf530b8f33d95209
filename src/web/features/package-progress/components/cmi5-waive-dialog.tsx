import { CMI5_WAIVE_REASONS } from "@contract";
import { type FormEvent, useId, useState } from "react";
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
import { Label } from "../../../components/ui/label";
import { NativeSelect } from "../../../components/ui/native-select";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useWaiveCmi5Unit } from "../api/waive-cmi5-unit";

export type WaiveTarget = { userId: string; learnerName: string };
type Reason = (typeof CMI5_WAIVE_REASONS)[number];

/**
 * Waives a unit (AU) of a cmi5 module for a learner: the unit counts as done without being
 * taken, with cmi5's reason, and the module completes once every unit counts.
 */
export function Cmi5WaiveDialog({
  courseId,
  moduleId,
  units,
  target,
  onClose,
}: {
  courseId: string;
  moduleId: string;
  units: { id: string; title: string }[];
  target: WaiveTarget | null;
  onClose: () => void;
}) {
  const waive = useWaiveCmi5Unit();
  const [unitId, setUnitId] = useState(units[0]?.id ?? "");
  const [reason, setReason] = useState<Reason>("Administrative");
  const unitField = useId();
  const reasonField = useId();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!target) return;
    const unit = units.find((u) => u.id === unitId);
    try {
      const status = await waive.mutateAsync({
        courseId,
        moduleId,
        userId: target.userId,
        auId: unitId,
        reason,
      });
      toast({
        title: "Unit waived",
        description: status.satisfied
          ? `“${unit?.title}” counts for ${target.learnerName}, and the module is complete.`
          : `“${unit?.title}” counts for ${target.learnerName}.`,
      });
      onClose();
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Unit not waived",
        description: getErrorMessage(error) ?? "The unit could not be waived.",
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
          <DialogTitle>Waive a unit</DialogTitle>
          <DialogDescription>
            {target
              ? `The unit counts as done for ${target.learnerName} without being taken, and their record says why.`
              : "The unit counts as done without being taken."}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void onSubmit(e)} className="grid gap-5" noValidate>
          <div className="grid gap-1.5">
            <Label htmlFor={unitField}>Unit</Label>
            <NativeSelect id={unitField} value={unitId} onChange={(e) => setUnitId(e.target.value)}>
              {units.map((unit) => (
                <option key={unit.id} value={unit.id}>
                  {unit.title}
                </option>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={reasonField}>Reason</Label>
            <NativeSelect
              id={reasonField}
              value={reason}
              onChange={(e) => setReason(e.target.value as Reason)}
            >
              {CMI5_WAIVE_REASONS.map((value) => (
                <option key={value} value={value}>
                  {value}
                </option>
              ))}
            </NativeSelect>
          </div>
          <DialogFooter>
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={waive.isPending || !unitId}>
              {waive.isPending ? <Spinner /> : null}
              Waive unit
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
