import type { TotpSetup } from "@contract";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";

/** The secret in groups of four, as people type it into an app. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/**
 * Adds an authenticator app: its QR code (the otpauth URI), the same secret as text for an
 * app that cannot scan, and its first code, which proves the app holds the secret.
 */
export function TotpSetupPanel(props: {
  setup: TotpSetup;
  busy: boolean;
  error?: string;
  onSubmit(code: string): void;
}) {
  const id = useId();
  const [qr, setQr] = useState<string>();
  const [code, setCode] = useState("");
  useEffect(() => {
    let live = true;
    void import("qrcode").then(({ default: QRCode }) =>
      QRCode.toDataURL(props.setup.uri, { margin: 1, width: 192 }).then((url) => {
        if (live) setQr(url);
      }),
    );
    return () => {
      live = false;
    };
  }, [props.setup.uri]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    props.onSubmit(code);
  }

  const codeId = `${id}-code`;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <ol className="grid list-decimal gap-4 pl-5 text-sm text-zinc-700">
        <li>
          Scan this QR code with your authenticator app (Google Authenticator, 1Password, Microsoft
          Authenticator…).
          <div className="mt-3 flex justify-center sm:justify-start">
            {qr ? (
              <img
                src={qr}
                alt="QR code for your authenticator app"
                width={192}
                height={192}
                className="rounded-lg border border-zinc-200"
              />
            ) : (
              <div className="size-48 animate-pulse rounded-lg bg-zinc-100" />
            )}
          </div>
        </li>
        <li>
          Can't scan it? Enter this key in the app instead:
          <code
            data-testid="totp-secret"
            className="mt-2 block rounded-md bg-zinc-100 px-3 py-2 font-mono text-sm break-all text-zinc-900 select-all"
          >
            {grouped(props.setup.secret)}
          </code>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <Field id={codeId} label="Code from the app" error={props.error}>
        <Input
          id={codeId}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9 ]*"
          maxLength={7}
          placeholder="123456"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          className="w-40 font-mono tracking-widest"
          {...fieldAria(codeId, props.error)}
        />
      </Field>
      <div>
        <Button type="submit" disabled={props.busy || code.replace(/\s/g, "").length !== 6}>
          {props.busy ? <Spinner /> : null}
          Verify and add
        </Button>
      </div>
    </form>
  );
}
