import { REMINDER_MESSAGES } from "@contract";
import { BellOffIcon, CircleCheckIcon, LinkIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Logo } from "../../../components/logo";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useUnsubscribe } from "../api/unsubscribe";

/**
 * The page a reminder's unsubscribe link opens, signed in or not. Opening it changes nothing
 * (mail scanners fetch links); the learner confirms with the button.
 */
export function UnsubscribeView({ token, productName }: { token: string; productName: string }) {
  const unsubscribe = useUnsubscribe();
  const invalid = !token || isApiError(unsubscribe.error, "reminders.unsubscribe_link_invalid");
  return (
    <div className="min-h-dvh bg-gradient-to-b from-zinc-100 to-zinc-50">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-16 w-full max-w-xl items-center justify-between gap-3 px-4 sm:px-6">
          <Logo name={productName} />
          <span className="text-xs font-medium tracking-wide text-zinc-600 uppercase">
            Email preferences
          </span>
        </div>
      </header>
      <main id="main" className="mx-auto w-full max-w-xl px-4 py-8 sm:px-6 sm:py-12">
        {invalid ? (
          <Panel
            icon={<LinkIcon className="size-6" aria-hidden="true" />}
            tone="zinc"
            title="This link does not work"
          >
            {REMINDER_MESSAGES.badUnsubscribeLink} Open the link from your most recent reminder
            email, copied completely.
          </Panel>
        ) : unsubscribe.isSuccess ? (
          <Panel
            icon={<CircleCheckIcon className="size-6" aria-hidden="true" />}
            tone="emerald"
            title="You're unsubscribed"
          >
            You will no longer receive reminder emails from {productName}. Emails with your
            certificates still arrive.
          </Panel>
        ) : (
          <Panel
            icon={<BellOffIcon className="size-6" aria-hidden="true" />}
            tone="indigo"
            title="Stop reminder emails?"
          >
            <span className="grid gap-5">
              <span>
                {productName} reminds you about courses you have not finished and about courses that
                are about to close. Emails with your certificates are not affected.
              </span>
              {unsubscribe.isError ? (
                <span role="alert" className="text-sm font-medium text-red-700">
                  {getErrorMessage(unsubscribe.error) ??
                    "Your choice could not be saved. Please try again."}
                </span>
              ) : null}
              <span>
                <Button
                  type="button"
                  disabled={unsubscribe.isPending}
                  onClick={() => unsubscribe.mutate(token)}
                >
                  {unsubscribe.isPending ? <Spinner /> : null}
                  Unsubscribe
                </Button>
              </span>
            </span>
          </Panel>
        )}
      </main>
    </div>
  );
}

const TONES = {
  zinc: "bg-zinc-100 text-zinc-700",
  emerald: "bg-emerald-100 text-emerald-700",
  indigo: "bg-indigo-100 text-indigo-700",
} as const;

function Panel(props: {
  icon: ReactNode;
  tone: keyof typeof TONES;
  title: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="unsubscribe-title"
      className="grid gap-4 rounded-2xl border border-zinc-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <span
        className={`flex size-12 items-center justify-center rounded-full ${TONES[props.tone]}`}
      >
        {props.icon}
      </span>
      <h1 id="unsubscribe-title" className="text-xl font-semibold tracking-tight text-zinc-950">
        {props.title}
      </h1>
      <p className="text-[15px] leading-relaxed text-zinc-700">{props.children}</p>
    </section>
  );
}
