import {
  SECOND_FACTOR_TEXTS,
  type SecondStep,
  type SecondStepProof,
  type TotpSetup,
  type User,
} from "@contract";
import { KeyRoundIcon, ShieldCheckIcon, SmartphoneIcon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { errorCodeOf, getErrorMessage } from "../../../lib/api-client";
import {
  finishSetupAtSignIn,
  getStepPasskeyOptions,
  startPasskeySetupAtSignIn,
  startTotpSetupAtSignIn,
  verifySecondStep,
} from "../api/second-step";
import { createPasskey, passkeysSupported, signWithPasskey } from "../passkey-ceremony";
import { RecoveryCodesPanel } from "./recovery-codes-panel";
import { TotpSetupPanel } from "./totp-setup-panel";

type Props = {
  step: SecondStep;
  /** The session started: the sign-in screen welcomes the user and moves on. */
  onSignedIn(user: User): void;
  /** Back to the password (also where a lapsed step sends the user). */
  onCancel(): void;
};

/** The error people read: a browser's cancelled passkey prompt says so plainly. */
function failureText(error: unknown): string {
  if (error instanceof Error && error.name === "NotAllowedError") {
    return "The passkey prompt was closed or timed out. Try again.";
  }
  return getErrorMessage(error) ?? "Something went wrong. Please try again.";
}

/**
 * The sign-in's second step: a passkey, an authenticator-app code or a recovery code; or,
 * when the organisation requires a factor the account lacks, setting one up first.
 */
export function SecondStepPanel(props: Props) {
  const titleId = useId();
  const setup = props.step.setupRequired;
  return (
    <section aria-labelledby={titleId} className="grid gap-6">
      <div className="grid gap-2">
        <span className="flex size-10 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600 ring-1 ring-indigo-100">
          <ShieldCheckIcon className="size-5" aria-hidden="true" />
        </span>
        <h2 id={titleId} className="text-xl font-semibold tracking-tight text-zinc-950">
          {setup ? SECOND_FACTOR_TEXTS.setupTitle : SECOND_FACTOR_TEXTS.stepTitle}
        </h2>
        <p className="text-sm text-zinc-600">
          {setup ? SECOND_FACTOR_TEXTS.setupDescription : SECOND_FACTOR_TEXTS.stepDescription}
        </p>
      </div>
      {setup ? <SetupStep {...props} /> : <VerifyStep {...props} />}
      <Button variant="ghost" className="w-fit text-zinc-600" onClick={props.onCancel}>
        Back to sign in
      </Button>
    </section>
  );
}

function VerifyStep({ step, onSignedIn }: Props) {
  const ids = useId();
  const canPasskey = step.methods.includes("passkey") && passkeysSupported();
  const [mode, setMode] = useState<"totp" | "recovery">(
    step.methods.includes("totp") ? "totp" : "recovery",
  );
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState<"passkey" | "code" | null>(null);
  const [error, setError] = useState<string>();

  async function prove(kind: "passkey" | "code", proof: () => Promise<SecondStepProof>) {
    setBusy(kind);
    setError(undefined);
    try {
      onSignedIn(await verifySecondStep(await proof()));
    } catch (failure) {
      setError(failureText(failure));
      if (errorCodeOf(failure) === "mfa.challenge_expired") setCode("");
    } finally {
      setBusy(null);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void prove("code", async () =>
      mode === "totp"
        ? { method: "totp", code: code.replace(/\s/g, "") }
        : { method: "recovery", code: code.replace(/[\s-]/g, "").toLowerCase() },
    );
  }

  const codeId = `${ids}-code`;
  return (
    <div className="grid gap-5">
      {canPasskey ? (
        <Button
          size="lg"
          className="w-full"
          disabled={busy !== null}
          onClick={() =>
            void prove("passkey", async () => ({
              method: "passkey",
              response: await signWithPasskey(await getStepPasskeyOptions()),
            }))
          }
        >
          {busy === "passkey" ? <Spinner /> : <KeyRoundIcon aria-hidden="true" />}
          Use a passkey
        </Button>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Enter a code">
        <Field
          id={codeId}
          label={mode === "totp" ? "Code from your authenticator app" : "Recovery code"}
          error={error}
        >
          <Input
            id={codeId}
            inputMode={mode === "totp" ? "numeric" : "text"}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={mode === "totp" ? "123456" : "abcde-12345"}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            className="font-mono tracking-widest"
            {...fieldAria(codeId, error)}
          />
        </Field>
        <Button
          type="submit"
          variant={canPasskey ? "outline" : "default"}
          size="lg"
          className="w-full"
          disabled={busy !== null || code.trim() === ""}
        >
          {busy === "code" ? <Spinner /> : null}
          Verify
        </Button>
      </form>
      {step.methods.includes("totp") && step.methods.includes("recovery") ? (
        <Button
          variant="link"
          className="h-auto w-fit p-0 text-sm"
          onClick={() => {
            setMode(mode === "totp" ? "recovery" : "totp");
            setCode("");
            setError(undefined);
          }}
        >
          {mode === "totp" ? "Use a recovery code instead" : "Use your authenticator app instead"}
        </Button>
      ) : null}
    </div>
  );
}

function SetupStep({ onSignedIn }: Props) {
  const [totp, setTotp] = useState<TotpSetup>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<{ user: User; recoveryCodes: string[] }>();

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <RecoveryCodesPanel
        codes={done.recoveryCodes}
        doneLabel="Continue"
        onDone={() => onSignedIn(done.user)}
      />
    );
  }
  if (totp) {
    return (
      <TotpSetupPanel
        setup={totp}
        busy={busy}
        error={error}
        onSubmit={(code) =>
          void run(async () => setDone(await finishSetupAtSignIn({ method: "totp", code })))
        }
      />
    );
  }
  return (
    <div className="grid gap-3">
      {passkeysSupported() ? (
        <Button
          size="lg"
          className="w-full"
          disabled={busy}
          onClick={() =>
            void run(async () => {
              const response = await createPasskey(await startPasskeySetupAtSignIn());
              setDone(await finishSetupAtSignIn({ method: "passkey", name: "Passkey", response }));
            })
          }
        >
          <KeyRoundIcon aria-hidden="true" />
          Add a passkey
        </Button>
      ) : null}
      <Button
        size="lg"
        variant="outline"
        className="w-full"
        disabled={busy}
        onClick={() => void run(async () => setTotp(await startTotpSetupAtSignIn()))}
      >
        <SmartphoneIcon aria-hidden="true" />
        Use an authenticator app
      </Button>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
