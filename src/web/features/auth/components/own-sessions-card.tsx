import type { ActiveSession } from "@contract";
import { LaptopIcon, LogOutIcon } from "lucide-react";
import { useId } from "react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { useEndOtherSessions, useEndSession, useOwnSessions } from "../api/sessions";
import { browserName } from "../browser-name";

/**
 * Profile's "Where you're signed in": each browser or device signed in as the user, so that
 * one left signed in elsewhere (a shared computer, a lost phone) can be signed out from here.
 */
export function OwnSessionsCard() {
  const titleId = useId();
  const sessions = useOwnSessions();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <LaptopIcon className="size-5 text-indigo-600" aria-hidden="true" />
          Where you're signed in
        </CardTitle>
        <CardDescription>
          Each browser or device signed in to your account. Sign out any you do not recognise or no
          longer use.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <div role="status" aria-label="Loading where you're signed in" className="grid gap-3">
            <Skeleton className="h-14 rounded-xl" />
            <Skeleton className="h-14 rounded-xl" />
          </div>
        ) : sessions.isError ? (
          <LoadError
            message={loadFailureHint(sessions.error, "Your sessions could not be loaded.")}
            onRetry={() => void sessions.refetch()}
          />
        ) : (
          <SessionList sessions={sessions.data.sessions} />
        )}
      </CardContent>
    </Card>
  );
}

function SessionList({ sessions }: { sessions: ActiveSession[] }) {
  const dates = useDates();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [confirm, confirmation] = useConfirm();
  const others = sessions.filter((s) => !s.current).length;

  async function signOut(session: ActiveSession) {
    try {
      await endOne.mutateAsync(session.id);
      toast({
        title: "Signed out",
        description: `${browserName(session.userAgent)} is signed out.`,
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Could not sign it out",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  }

  async function signOutOthers() {
    const confirmed = await confirm({
      title: "Sign out everywhere else?",
      message:
        "Every other browser and device signed in to your account is signed out. This one stays signed in.",
      confirmLabel: "Sign out everywhere else",
    });
    if (!confirmed) return;
    try {
      const { ended } = await endOthers.mutateAsync();
      toast({
        title: "Signed out everywhere else",
        description: `${ended} other ${ended === 1 ? "session" : "sessions"} signed out.`,
      });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Could not sign them out",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  }

  return (
    <div className="grid gap-4">
      <ul className="grid divide-y divide-zinc-200 rounded-xl border border-zinc-200">
        {sessions.map((session) => {
          const name = browserName(session.userAgent);
          const signedIn = dates.dateTime(session.signedInAt);
          const ending = endOne.isPending && endOne.variables === session.id;
          return (
            <li key={session.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-zinc-900">
                  <span>{name}</span>
                  {session.current ? <Badge variant="secondary">This browser</Badge> : null}
                </p>
                <p className="text-xs text-zinc-600">
                  Signed in {signedIn}
                  {session.ip ? ` from ${session.ip}` : ""}
                </p>
              </div>
              {session.current ? null : (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={ending}
                  onClick={() => void signOut(session)}
                  aria-label={`Sign out ${name}, signed in ${signedIn}`}
                >
                  {ending ? <Spinner /> : <LogOutIcon aria-hidden="true" />}
                  Sign out
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <Button
          variant="outline"
          className="w-fit"
          disabled={endOthers.isPending}
          onClick={() => void signOutOthers()}
        >
          {endOthers.isPending ? <Spinner /> : <LogOutIcon aria-hidden="true" />}
          Sign out everywhere else
        </Button>
      ) : (
        <p className="text-sm text-zinc-600">This is the only browser signed in to your account.</p>
      )}
      {confirmation}
    </div>
  );
}
