import { ShieldCheckIcon } from "lucide-react";
import { Switch } from "radix-ui";
import { useId } from "react";
import { SettingsCard } from "../../../components/settings-card";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useSecondFactorPolicy, useSetSecondFactorPolicy } from "../api/second-factor-policy";

/** Settings: whether every administrator must confirm sign-in with a second factor. */
export function SecondFactorPolicyCard() {
  return (
    <SettingsCard
      icon={ShieldCheckIcon}
      title="Administrator sign-in"
      description="Administrators see every learner's records: a second factor keeps a stolen password from opening them."
      query={useSecondFactorPolicy()}
      loadingLabel="Loading the sign-in rule"
      loadFailure="The sign-in rule could not be loaded."
    >
      {(policy) => <PolicySwitch required={policy.required} />}
    </SettingsCard>
  );
}

function PolicySwitch({ required }: { required: boolean }) {
  const id = useId();
  const save = useSetSecondFactorPolicy();
  return (
    <div className="flex items-start justify-between gap-4 rounded-xl border border-zinc-200 p-4">
      <div className="grid gap-1">
        <label htmlFor={id} className="text-sm font-medium text-zinc-900">
          Require a second factor of every administrator
        </label>
        <p id={`${id}-hint`} className="text-xs text-zinc-600">
          An administrator without a passkey or authenticator app sets one up at their next sign-in,
          before they get in.
        </p>
      </div>
      <Switch.Root
        id={id}
        checked={required}
        disabled={save.isPending}
        onCheckedChange={(on) =>
          save.mutate(
            { required: on },
            {
              onSuccess: () =>
                toast({ title: on ? "Second factor required" : "Second factor optional" }),
              onError: (error) =>
                toast({
                  variant: "destructive",
                  title: "Sign-in rule not saved",
                  description: getErrorMessage(error) ?? "Please try again.",
                }),
            },
          )
        }
        aria-describedby={`${id}-hint`}
        className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-zinc-300 transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 data-[state=checked]:bg-indigo-600"
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow-sm transition-transform data-[state=checked]:translate-x-[22px]" />
      </Switch.Root>
    </div>
  );
}
