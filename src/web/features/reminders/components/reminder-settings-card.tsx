import {
  EXPIRY_REMINDER_DAYS,
  INACTIVITY_DAYS_MAX,
  INACTIVITY_DAYS_MIN,
  type ReminderSettings,
  reminderSettingsSchema,
} from "@contract";
import { BellRingIcon } from "lucide-react";
import { Switch } from "radix-ui";
import { type FormEvent, useId, useState } from "react";
import { SettingsCard } from "../../../components/settings-card";
import { Button } from "../../../components/ui/button";
import { FieldError, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useReminderSettings } from "../api/get-reminder-settings";
import { useUpdateReminderSettings } from "../api/update-reminder-settings";

/** Shown in the days field when inactivity reminders are first turned on. */
const SUGGESTED_DAYS = 7;

/** The "Learner reminders" card of the admin settings: inactivity and expiry reminders. */
export function ReminderSettingsCard() {
  return (
    <SettingsCard
      icon={BellRingIcon}
      title="Learner reminders"
      description="Emails that bring learners back to unfinished courses. Each reminder carries an unsubscribe link; certificate emails are always sent."
      query={useReminderSettings()}
      loadingLabel="Loading reminder settings"
      loadFailure="The reminder settings could not be loaded."
    >
      {(settings) => <ReminderSettingsForm initial={settings} />}
    </SettingsCard>
  );
}

function ReminderSettingsForm({ initial }: { initial: ReminderSettings }) {
  const ids = useId();
  const [inactivityOn, setInactivityOn] = useState(initial.inactivityDays !== null);
  const [days, setDays] = useState(String(initial.inactivityDays ?? SUGGESTED_DAYS));
  const [expiryOn, setExpiryOn] = useState(initial.expiryReminders);
  const [error, setError] = useState<string>();
  const save = useUpdateReminderSettings();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = reminderSettingsSchema.safeParse({
      inactivityDays: inactivityOn ? (days.trim() === "" ? Number.NaN : Number(days)) : null,
      expiryReminders: expiryOn,
    });
    if (!parsed.success) {
      setError(
        `Enter a whole number of days from ${INACTIVITY_DAYS_MIN} to ${INACTIVITY_DAYS_MAX}.`,
      );
      return;
    }
    setError(undefined);
    save.mutate(parsed.data, {
      onSuccess: () => toast({ title: "Reminder settings saved" }),
      onError: (err) =>
        toast({
          variant: "destructive",
          title: "Reminder settings not saved",
          description: getErrorMessage(err) ?? "Please try again.",
        }),
    });
  }

  const daysId = `${ids}-days`;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <div className="grid gap-4 rounded-xl border border-zinc-200 p-4">
        <SwitchRow
          id={`${ids}-inactivity`}
          label="Remind inactive learners"
          hint="Once per stretch of inactivity on a course they have not finished; activity re-arms it."
          checked={inactivityOn}
          onCheckedChange={(on) => {
            setInactivityOn(on);
            if (!on) setError(undefined);
          }}
        />
        <div className="grid gap-2">
          <label htmlFor={daysId} className="text-sm font-medium text-zinc-900">
            Remind inactive learners after N days
          </label>
          <div className="flex items-center gap-3">
            <Input
              id={daysId}
              type="number"
              inputMode="numeric"
              min={INACTIVITY_DAYS_MIN}
              max={INACTIVITY_DAYS_MAX}
              step={1}
              value={days}
              disabled={!inactivityOn}
              onChange={(e) => setDays(e.target.value)}
              className="w-28"
              {...fieldAria(daysId, error)}
            />
            <span className="text-sm text-zinc-600">days without progress</span>
          </div>
          <FieldError id={`${daysId}-error`}>{error}</FieldError>
        </div>
      </div>
      <div className="rounded-xl border border-zinc-200 p-4">
        <SwitchRow
          id={`${ids}-expiry`}
          label={`Remind learners ${EXPIRY_REMINDER_DAYS} days before access ends`}
          hint="Once for each course or enrollment that expires before the learner finishes it."
          checked={expiryOn}
          onCheckedChange={setExpiryOn}
        />
      </div>
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save reminders
        </Button>
      </div>
    </form>
  );
}

function SwitchRow(props: {
  id: string;
  label: string;
  hint: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="grid gap-1">
        <label htmlFor={props.id} className="text-sm font-medium text-zinc-900">
          {props.label}
        </label>
        <p id={`${props.id}-hint`} className="text-xs text-zinc-600">
          {props.hint}
        </p>
      </div>
      <Switch.Root
        id={props.id}
        checked={props.checked}
        onCheckedChange={props.onCheckedChange}
        aria-describedby={`${props.id}-hint`}
        className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-zinc-300 transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 data-[state=checked]:bg-indigo-600"
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow-sm transition-transform data-[state=checked]:translate-x-[22px]" />
      </Switch.Root>
    </div>
  );
}
