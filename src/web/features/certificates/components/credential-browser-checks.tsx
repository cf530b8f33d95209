import {
  FileSearchIcon,
  MonitorCheckIcon,
  ShieldAlertIcon,
  ShieldCheckIcon,
  ShieldXIcon,
} from "lucide-react";
import { type ChangeEvent, type ReactNode, useId, useRef, useState } from "react";
import type {
  CredentialProblem,
  OpenBadgeVerification,
} from "../../../../contract/open-badge-verification";
import { Label } from "../../../components/ui/label";
import { Spinner } from "../../../components/ui/spinner";
import { isApiError, loadFailureHint } from "../../../lib/api-client";
import { cn } from "../../../lib/utils";
import { useCredentialCheckInBrowser } from "../api/check-credential-in-browser";
import { verifyInBrowser } from "../verify-in-browser";

/** A file larger than this is no credential of the portal's (they are a few kilobytes). */
const CREDENTIAL_FILE_MAX_BYTES = 1024 * 1024;

/** Refusals of the credential: not signed in, another learner's certificate, none at all. */
const REFUSED = new Set([401, 403, 404]);

/** What a check found, in a word (the headline) and a sentence (why). */
const PROBLEMS: Record<CredentialProblem, { label: string; text: string }> = {
  altered: {
    label: "altered",
    text: "Its contents no longer match the issuer's signature: something in it (a name, a date, an amount) was changed after it was signed.",
  },
  "unknown-key": {
    label: "not signed by this portal",
    text: "It is signed with a key this portal's DID document does not publish: another issuer signed it, or the signature was forged.",
  },
  unsigned: {
    label: "not signed",
    text: "It carries no signature, so nothing shows who issued it.",
  },
  "status-unchecked": {
    label: "status unknown",
    text: "The signature holds, but the issuer's revocation list could not be read or verified just now. Try again later.",
  },
  "not-a-credential": {
    label: "not a credential",
    text: "It is not an Open Badges credential this portal can read.",
  },
};

const TONES = {
  valid: {
    tone: "border-emerald-200 bg-emerald-50 text-emerald-950",
    icon: <ShieldCheckIcon className="size-6 shrink-0 text-emerald-700" aria-hidden="true" />,
  },
  revoked: {
    tone: "border-red-200 bg-red-50 text-red-950",
    icon: <ShieldXIcon className="size-6 shrink-0 text-red-700" aria-hidden="true" />,
  },
  invalid: {
    tone: "border-amber-200 bg-amber-50 text-amber-950",
    icon: <ShieldAlertIcon className="size-6 shrink-0 text-amber-700" aria-hidden="true" />,
  },
};

/** A verification's headline word and its explanation. */
function described(
  verification: OpenBadgeVerification,
  issuerName: string,
): { label: string; text: string } {
  if (verification.result === "valid") {
    return {
      label: "valid",
      text: `Its signature matches a key ${issuerName} publishes, and ${issuerName}'s revocation list does not mark it revoked.`,
    };
  }
  if (verification.result === "revoked") {
    return {
      label: "revoked",
      text: `Its signature holds, but ${issuerName}'s revocation list marks it revoked: it is no longer valid.`,
    };
  }
  return PROBLEMS[verification.problem ?? "not-a-credential"];
}

/** One part of the credential's checks: a titled card with what the part does. */
function CheckPanel({
  titleId,
  icon,
  title,
  description,
  children,
}: {
  titleId: string;
  icon: ReactNode;
  title: string;
  description: ReactNode;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={titleId}
      className="grid gap-4 rounded-2xl border border-zinc-200 bg-white px-5 py-5 sm:px-8"
    >
      <div className="grid gap-1">
        <div className="flex items-center gap-2 text-zinc-950">
          {icon}
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
        </div>
        <p className="text-sm text-zinc-600">{description}</p>
      </div>
      {children}
    </section>
  );
}

/** One outcome: its icon and colour, a headline, and what follows it. */
function Outcome({
  verification,
  title,
  testId,
  children,
}: {
  verification: OpenBadgeVerification;
  title: string;
  testId: string;
  children: ReactNode;
}) {
  const shown = TONES[verification.result];
  return (
    <div
      data-testid={testId}
      data-result={verification.result}
      data-problem={verification.problem}
      className={cn("flex items-start gap-3 rounded-xl border px-4 py-4", shown.tone)}
    >
      {shown.icon}
      <div className="grid min-w-0 gap-1">
        <h3 className="text-base font-semibold">{title}</h3>
        {children}
      </div>
    </div>
  );
}

/**
 * For the certificate's learner and administrators: the credential fetched with their session
 * and verified by this browser itself, beside the portal's answer. Anyone else is refused the
 * credential (it holds the learner's whole licence number) and this part does not show.
 */
export function BrowserCredentialCheck({ code, issuerName }: { code: string; issuerName: string }) {
  const check = useCredentialCheckInBrowser(code);
  const titleId = useId();
  if (isApiError(check.error) && REFUSED.has(check.error.status)) return null;
  return (
    <CheckPanel
      titleId={titleId}
      icon={<MonitorCheckIcon className="size-5 text-indigo-600" aria-hidden="true" />}
      title="Your browser's own check"
      description={`The same credential, verified here rather than by the portal: its signature against the keys ${issuerName} publishes, then its status in ${issuerName}'s revocation list. Shown to the learner and administrators only, since the credential holds the full licence number.`}
    >
      {check.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-zinc-700">
          <Spinner className="size-4 text-indigo-600" />
          Checking the credential in your browser…
        </p>
      ) : check.isError ? (
        <p
          data-testid="browser-credential-check"
          data-result="unknown"
          className="text-sm text-zinc-700"
        >
          {loadFailureHint(check.error, "The credential could not be fetched just now.")}
        </p>
      ) : (
        <Outcome
          verification={check.data}
          title={`Checked in your browser: ${described(check.data, issuerName).label}`}
          testId="browser-credential-check"
        >
          <p className="text-sm">{described(check.data, issuerName).text}</p>
        </Outcome>
      )}
    </CheckPanel>
  );
}

type FileCheck =
  | { status: "idle" }
  | { status: "checking"; fileName: string }
  /** The browser could not run the check at all (e.g. no Web Crypto outside HTTPS). */
  | { status: "failed"; fileName: string }
  | {
      status: "done";
      fileName: string;
      verification: OpenBadgeVerification;
      /** The credential's id, when the file had one. */
      credentialId: string | null;
    };

/** The file's JSON, or why it cannot be a credential. */
async function readCredentialFile(file: File): Promise<unknown> {
  if (file.size > CREDENTIAL_FILE_MAX_BYTES) return undefined;
  try {
    return JSON.parse(await file.text());
  } catch {
    return undefined;
  }
}

const idOf = (json: unknown): string | null =>
  typeof json === "object" && json !== null && typeof (json as { id?: unknown }).id === "string"
    ? (json as { id: string }).id
    : null;

/**
 * For anyone: a credential file the learner shared (Credential-….json), read and verified in
 * this browser, and whether it is this certificate's own (its id is this page's address).
 * The file never leaves the browser.
 */
export function CredentialFileCheck({
  verifyUrl,
  issuerName,
}: {
  verifyUrl: string;
  issuerName: string;
}) {
  const inputId = useId();
  const titleId = useId();
  const [check, setCheck] = useState<FileCheck>({ status: "idle" });
  // Only the latest chosen file's outcome shows, however the checks finish.
  const latest = useRef(0);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    const run = ++latest.current;
    if (!file) {
      setCheck({ status: "idle" });
      return;
    }
    setCheck({ status: "checking", fileName: file.name });
    const json = await readCredentialFile(file);
    try {
      const verification: OpenBadgeVerification =
        json === undefined
          ? { result: "invalid", problem: "not-a-credential" }
          : await verifyInBrowser(json);
      if (run !== latest.current) return;
      setCheck({ status: "done", fileName: file.name, verification, credentialId: idOf(json) });
    } catch {
      if (run === latest.current) setCheck({ status: "failed", fileName: file.name });
    }
  }

  return (
    <CheckPanel
      titleId={titleId}
      icon={<FileSearchIcon className="size-5 text-indigo-600" aria-hidden="true" />}
      title="Check a credential file"
      description={
        <>
          Did the learner send you their credential (a <span className="font-mono">.json</span>{" "}
          file)? Your browser checks its signature and revocation status, and whether it is this
          certificate's. The file is read here and is not uploaded.
        </>
      }
    >
      <div className="grid min-w-0 gap-2 rounded-xl border border-dashed border-zinc-300 p-4">
        <Label htmlFor={inputId}>Credential file</Label>
        <input
          id={inputId}
          type="file"
          accept=".json,application/json,application/vc+ld+json,application/ld+json"
          className="w-full min-w-0 text-sm text-zinc-700 file:mr-3 file:rounded-md file:border file:border-zinc-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-zinc-900 hover:file:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          onChange={(event) => void onChange(event)}
        />
      </div>
      <div aria-live="polite">
        {check.status === "checking" ? (
          <p role="status" className="flex items-center gap-2 text-sm text-zinc-700">
            <Spinner className="size-4 text-indigo-600" />
            Checking {check.fileName} in your browser…
          </p>
        ) : check.status === "failed" ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            Your browser could not check {check.fileName}. Reload the page and try again.
          </p>
        ) : check.status === "done" ? (
          <FileOutcome check={check} verifyUrl={verifyUrl} issuerName={issuerName} />
        ) : null}
      </div>
    </CheckPanel>
  );
}

function FileOutcome({
  check,
  verifyUrl,
  issuerName,
}: {
  check: Extract<FileCheck, { status: "done" }>;
  verifyUrl: string;
  issuerName: string;
}) {
  const { label, text } = described(check.verification, issuerName);
  const readable = check.verification.problem !== "not-a-credential";
  const trusted = check.verification.result !== "invalid";
  const matches = check.credentialId === verifyUrl;
  return (
    <Outcome
      verification={check.verification}
      title={`Credential file: ${label}`}
      testId="credential-file-check"
    >
      <p className="text-sm break-words">
        <span className="font-medium">{check.fileName}</span>: {text}
      </p>
      {readable ? (
        <p data-testid="credential-file-match" data-matches={matches} className="text-sm">
          {matches && trusted ? (
            "It is the credential of this certificate: its id is this page's address."
          ) : matches ? (
            "It names this certificate (its id is this page's address), but a file that fails the check proves nothing."
          ) : (
            <>
              It is not this certificate's credential: its id is{" "}
              <span className="font-mono break-all">{check.credentialId ?? "missing"}</span>.
            </>
          )}
        </p>
      ) : null}
    </Outcome>
  );
}
