import {
  passkeyNameSchema,
  RECOVERY_CODE_COUNT,
  type SecondFactor,
  type SecondFactorStatus,
  type TotpSetup,
} from "@contract";
import { KeyRoundIcon, ShieldCheckIcon, SmartphoneIcon, TicketIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { LoadError } from "../../../components/ui/load-error";
import { PasswordInput } from "../../../components/ui/password-input";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { startPasskeySetup, startTotpSetup, useAddSecondFactor } from "../api/add-second-factor";
import { useSecondFactorStatus } from "../api/get-second-factor-status";
import { useRemoveSecondFactor } from "../api/remove-second-factor";
import { useRenewRecoveryCodes } from "../api/renew-recovery-codes";
import { createPasskey, passkeysSupported } from "../passkey-ceremony";
import { RecoveryCodesPanel } from "./recovery-codes-panel";
import { TotpSetupPanel } from "./totp-setup-panel";

type Open =
  | { kind: "passkey" }
  | { kind: "totp"; setup: TotpSetup }
  | { kind: "codes"; codes: string[] }
  | { kind: "remove"; factor: SecondFactor }
  | { kind: "renew" }
  | null;

/** The profile's "Second factor" card: an administrator's passkeys, app and recovery codes. */
export function SecondFactorCard() {
  const titleId = useId();
  const status = useSecondFactorStatus();
  return (
    <Card role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId} className="flex items-center gap-2">
          <ShieldCheckIcon className="size-5 text-indigo-600" aria-hidden="true" />
          Second factor
        </CardTitle>
        <CardDescription>
          Confirm each sign-in with a passkey or an authenticator app, so a stolen password alone
          cannot open your account.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <div role="status" aria-label="Loading your second factors" className="grid gap-3">
            <Skeleton className="h-14 rounded-xl" />
            <Skeleton className="h-10 w-64 rounded-xl" />
          </div>
        ) : status.isError ? (
          <LoadError
            message={loadFailureHint(status.error, "Your second factors could not be loaded.")}
            onRetry={() => void status.refetch()}
          />
        ) : (
          <Factors status={status.data} />
        )}
      </CardContent>
    </Card>
  );
}

function Factors({ status }: { status: SecondFactorStatus }) {
  const dates = useDates();
  const [open, setOpen] = useState<Open>(null);
  const [starting, setStarting] = useState(false);
  const hasApp = status.factors.some((f) => f.method === "totp");
  const close = () => setOpen(null);

  async function beginApp() {
    setStarting(true);
    try {
      setOpen({ kind: "totp", setup: await startTotpSetup() });
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Could not start",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    } finally {
      setStarting(false);
    }
  }

  return (
    <div className="grid gap-5">
      {status.required ? (
        <p className="rounded-lg bg-indigo-50 px-3 py-2.5 text-sm text-indigo-950">
          Your organisation requires a second factor of every administrator.
        </p>
      ) : null}
      {status.factors.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-300 px-4 py-5 text-sm text-zinc-600">
          No second factor yet: your password alone signs you in.
        </p>
      ) : (
        <ul className="grid divide-y divide-zinc-200 rounded-xl border border-zinc-200">
          {status.factors.map((factor) => (
            <li key={factor.id} className="flex flex-wrap items-center gap-3 px-4 py-3">
              <span className="flex size-9 items-center justify-center rounded-lg bg-zinc-100 text-zinc-700">
                {factor.method === "passkey" ? (
                  <KeyRoundIcon className="size-4" aria-hidden="true" />
                ) : (
                  <SmartphoneIcon className="size-4" aria-hidden="true" />
                )}
              </span>
              <div className="grid min-w-0 flex-1 gap-0.5">
                <p className="flex items-center gap-2 text-sm font-medium text-zinc-900">
                  <span className="truncate">{factor.name}</span>
                  <Badge variant="secondary">
                    {factor.method === "passkey" ? "Passkey" : "Authenticator app"}
                  </Badge>
                </p>
                <p className="text-xs text-zinc-600">
                  Added {dates.date(factor.createdAt)} · Last used{" "}
                  {factor.lastUsedAt ? dates.dateTime(factor.lastUsedAt) : "never"}
                </p>
              </div>
              <Button
                variant="outline"
                size="sm"
                onClick={() => setOpen({ kind: "remove", factor })}
                aria-label={`Remove ${factor.name}`}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {passkeysSupported() ? (
          <Button onClick={() => setOpen({ kind: "passkey" })}>
            <KeyRoundIcon aria-hidden="true" />
            Add a passkey
          </Button>
        ) : null}
        {hasApp ? null : (
          <Button variant="outline" disabled={starting} onClick={() => void beginApp()}>
            {starting ? <Spinner /> : <SmartphoneIcon aria-hidden="true" />}
            Add an authenticator app
          </Button>
        )}
      </div>
      {status.recoveryCodes ? (
        <div className="flex flex-wrap items-center gap-3 rounded-xl bg-zinc-50 px-4 py-3 ring-1 ring-zinc-200">
          <TicketIcon className="size-4 text-zinc-600" aria-hidden="true" />
          <p className="flex-1 text-sm text-zinc-700">
            {status.recoveryCodes.remaining} of {RECOVERY_CODE_COUNT} recovery codes left
          </p>
          <Button variant="outline" size="sm" onClick={() => setOpen({ kind: "renew" })}>
            New recovery codes
          </Button>
        </div>
      ) : null}

      <Dialog open={open !== null} onOpenChange={(isOpen) => (isOpen ? undefined : close())}>
        <DialogContent className="sm:max-w-lg">
          {open?.kind === "passkey" ? (
            <AddPasskey
              onAdded={(codes) => (codes ? setOpen({ kind: "codes", codes }) : close())}
            />
          ) : open?.kind === "totp" ? (
            <AddApp
              setup={open.setup}
              onAdded={(codes) => (codes ? setOpen({ kind: "codes", codes }) : close())}
            />
          ) : open?.kind === "codes" ? (
            <Dialogue title="Recovery codes" description="Keep them somewhere safe.">
              <RecoveryCodesPanel codes={open.codes} doneLabel="I saved them" onDone={close} />
            </Dialogue>
          ) : open?.kind === "remove" ? (
            <Confirm
              title={`Remove ${open.factor.name}?`}
              action="Remove"
              factor={open.factor}
              onDone={close}
            />
          ) : open?.kind === "renew" ? (
            <Confirm
              title="New recovery codes"
              action="Make new codes"
              onCodes={(codes) => setOpen({ kind: "codes", codes })}
              onDone={close}
            />
          ) : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

function Dialogue(props: { title: string; description: string; children: ReactNode }) {
  return (
    <>
      <DialogHeader>
        <DialogTitle>{props.title}</DialogTitle>
        <DialogDescription>{props.description}</DialogDescription>
      </DialogHeader>
      {props.children}
    </>
  );
}

function AddPasskey({ onAdded }: { onAdded(codes: string[] | null): void }) {
  const id = useId();
  const [name, setName] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const add = useAddSecondFactor();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = passkeyNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const response = await createPasskey(await startPasskeySetup());
      const added = await add.mutateAsync({ method: "passkey", name: parsed.data, response });
      toast({ title: "Passkey added" });
      onAdded(added.newRecoveryCodes);
    } catch (failure) {
      setError(
        failure instanceof Error && failure.name === "NotAllowedError"
          ? "The passkey prompt was closed or timed out. Try again."
          : (getErrorMessage(failure) ?? "The passkey could not be added."),
      );
    } finally {
      setBusy(false);
    }
  }

  const nameId = `${id}-name`;
  return (
    <Dialogue
      title="Add a passkey"
      description="Your device or security key keeps the key; the portal stores only its public half."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-5">
        <Field id={nameId} label="Name" hint="So you can tell your passkeys apart" error={error}>
          <Input
            id={nameId}
            value={name}
            placeholder="Work laptop"
            onChange={(e) => setName(e.target.value)}
            {...fieldAria(nameId, error, { hint: true })}
          />
        </Field>
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? <Spinner /> : null}
            Create passkey
          </Button>
        </div>
      </form>
    </Dialogue>
  );
}

function AddApp(props: { setup: TotpSetup; onAdded(codes: string[] | null): void }) {
  const add = useAddSecondFactor();
  const [error, setError] = useState<string>();
  return (
    <Dialogue
      title="Add an authenticator app"
      description="The app shows a new 6-digit code every 30 seconds."
    >
      <TotpSetupPanel
        setup={props.setup}
        busy={add.isPending}
        error={error}
        onSubmit={(code) =>
          add.mutate(
            { method: "totp", code },
            {
              onSuccess: (added) => {
                toast({ title: "Authenticator app added" });
                props.onAdded(added.newRecoveryCodes);
              },
              onError: (failure) => setError(getErrorMessage(failure) ?? "Please try again."),
            },
          )
        }
      />
    </Dialogue>
  );
}

/** Asks for the password or a code before a factor goes or new recovery codes are made. */
function Confirm(props: {
  title: string;
  action: string;
  factor?: SecondFactor;
  onCodes?(codes: string[]): void;
  onDone(): void;
}) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const remove = useRemoveSecondFactor();
  const renew = useRenewRecoveryCodes();
  const busy = remove.isPending || renew.isPending;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const confirmation = {
      ...(password ? { password } : {}),
      ...(code.trim() ? { code: code.trim() } : {}),
    };
    setError(undefined);
    try {
      if (props.factor) {
        await remove.mutateAsync({ id: props.factor.id, confirmation });
        toast({ title: `${props.factor.name} removed` });
        props.onDone();
      } else {
        props.onCodes?.(await renew.mutateAsync(confirmation));
      }
    } catch (failure) {
      setError(getErrorMessage(failure) ?? "Please try again.");
    }
  }

  return (
    <Dialogue
      title={props.title}
      description="Confirm it's you with your password, or a code from your authenticator app or a recovery code."
    >
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <Field id={`${id}-password`} label="Current password">
          <PasswordInput
            id={`${id}-password`}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <Field id={`${id}-code`} label="Or a code" error={error}>
          <Input
            id={`${id}-code`}
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            className="font-mono"
            {...fieldAria(`${id}-code`, error)}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button
            type="submit"
            variant={props.factor ? "destructive" : "default"}
            disabled={busy || (!password && !code.trim())}
          >
            {busy ? <Spinner /> : null}
            {props.action}
          </Button>
          <Button type="button" variant="ghost" onClick={props.onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Dialogue>
  );
}
