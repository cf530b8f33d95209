import { FileSearchIcon } from "lucide-react";
import { type ChangeEvent, useId, useRef, useState } from "react";
import type { OpenBadgeVerification } from "../../../../contract/open-badge-verification";
import { Label } from "../../../components/ui/label";
import { Spinner } from "../../../components/ui/spinner";
import { verifyInBrowser } from "../verify-in-browser";
import { CheckPanel, described, Outcome } from "./credential-check-parts";

/** A file larger than this is no credential of the portal's (they are a few kilobytes). */
const CREDENTIAL_FILE_MAX_BYTES = 1024 * 1024;

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
