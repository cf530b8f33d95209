import type { SetupStep } from "@contract";
import { ArrowRightIcon, CheckCircle2Icon, CircleIcon, XIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../../../components/ui/card";
import { useToast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useDismissSetupChecklist } from "../api/dismiss-setup-checklist";
import { useSetupChecklist } from "../api/get-setup-checklist";

const STEPS: Record<SetupStep, { label: string; hint: string; to: string }> = {
  organisation: {
    label: "Set up your organisation profile",
    hint: "The name, logo and address your certificates are issued under.",
    to: "/admin/settings",
  },
  catalogue: {
    label: "Build your credit catalogue",
    hint: "The bodies that accredit you and the credit types you offer.",
    to: "/admin/settings/credit-catalogue",
  },
  course: {
    label: "Publish your first course",
    hint: "A course with its modules, ready for learners to take.",
    to: "/admin/courses",
  },
};

/**
 * The first steps of a new portal, ticked by the server from what the portal holds. Shown
 * until all are done or this administrator dismisses it; nothing shows while it loads.
 */
export function SetupChecklistCard() {
  const { data: checklist } = useSetupChecklist();
  const dismiss = useDismissSetupChecklist();
  const { toast } = useToast();
  if (!checklist || checklist.dismissed) return null;
  const done = checklist.steps.filter((s) => s.done).length;
  if (done === checklist.steps.length) return null;

  return (
    <Card aria-labelledby="setup-checklist-title" role="region">
      <CardHeader className="flex flex-row items-start justify-between gap-3">
        <div className="grid gap-1.5">
          <CardTitle id="setup-checklist-title">Get your portal ready</CardTitle>
          <CardDescription>
            {done} of {checklist.steps.length} steps done
          </CardDescription>
        </div>
        <Button
          variant="ghost"
          size="icon-sm"
          className="-mt-1 -mr-2 text-zinc-600"
          aria-label="Dismiss the setup checklist"
          disabled={dismiss.isPending}
          onClick={() =>
            dismiss.mutate(undefined, {
              onError: (error) =>
                toast({
                  variant: "destructive",
                  title: "Checklist not dismissed",
                  description: getErrorMessage(error) ?? "The checklist could not be dismissed.",
                }),
            })
          }
        >
          <XIcon aria-hidden="true" />
        </Button>
      </CardHeader>
      <ol className="grid gap-1 px-2 pt-2 pb-3 sm:px-3">
        {checklist.steps.map(({ step, done: ticked }) => {
          const { label, hint, to } = STEPS[step];
          return (
            <li key={step}>
              <Link
                to={to}
                className="group flex items-center gap-3 rounded-xl p-2.5 transition-colors hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-indigo-600 sm:p-3"
              >
                {ticked ? (
                  <CheckCircle2Icon
                    className="size-5 shrink-0 text-emerald-600"
                    aria-hidden="true"
                  />
                ) : (
                  <CircleIcon className="size-5 shrink-0 text-zinc-400" aria-hidden="true" />
                )}
                <span className="grid min-w-0 flex-1 gap-0.5">
                  <span
                    className={
                      ticked
                        ? "text-sm font-medium text-zinc-600"
                        : "text-sm font-medium text-zinc-900"
                    }
                  >
                    {label}
                    <span className="sr-only">{ticked ? " (done)" : " (to do)"}</span>
                  </span>
                  <span className="text-sm text-zinc-600">{hint}</span>
                </span>
                <ArrowRightIcon
                  className="size-4 shrink-0 text-zinc-400 transition-transform group-hover:translate-x-0.5"
                  aria-hidden="true"
                />
              </Link>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
