import { DEADLINE_DAYS_MAX, type RegulatorOverview } from "@contract";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useSaveRegulatorDeadline } from "../api/save-regulator-deadline";

/** The regulator's deadline: how many days a completed claim may wait before it is overdue. */
export function DeadlineCard({ overview }: { overview: RegulatorOverview }) {
  const save = useSaveRegulatorDeadline();
  const [days, setDays] = useState(String(overview.deadlineDays));
  const id = `deadline-${overview.regulator}`;
  const value = Number(days);
  const valid = Number.isInteger(value) && value >= 1 && value <= DEADLINE_DAYS_MAX;
  return (
    <form
      className="col-span-2 grid gap-2 rounded-2xl border border-zinc-200 bg-white p-4 shadow-xs shadow-zinc-950/5 sm:col-span-1"
      onSubmit={(e) => {
        e.preventDefault();
        if (!valid) return;
        save.mutate(
          { regulator: overview.regulator, deadlineDays: value },
          {
            onSuccess: () => toast({ title: "Deadline saved" }),
            onError: (error) =>
              toast({
                variant: "destructive",
                title: "Could not save the deadline",
                description: getErrorMessage(error) ?? "Please try again.",
              }),
          },
        );
      }}
    >
      <Field
        id={id}
        label="Report within (days)"
        error={valid ? undefined : `Between 1 and ${DEADLINE_DAYS_MAX} days`}
      >
        <div className="flex gap-2">
          <Input
            id={id}
            type="number"
            min={1}
            max={DEADLINE_DAYS_MAX}
            inputMode="numeric"
            value={days}
            onChange={(e) => setDays(e.target.value)}
            {...fieldAria(id, !valid)}
            className="w-24"
          />
          <Button type="submit" variant="outline" disabled={!valid || save.isPending}>
            {save.isPending ? <Spinner /> : null}
            Save
          </Button>
        </div>
      </Field>
    </form>
  );
}
