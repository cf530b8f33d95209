import { MonitorCheckIcon } from "lucide-react";
import { useId } from "react";
import { Spinner } from "../../../components/ui/spinner";
import { isApiError, loadFailureHint } from "../../../lib/api-client";
import { useCredentialCheckInBrowser } from "../api/check-credential-in-browser";
import { CheckPanel, described, Outcome } from "./credential-check-parts";

/** Refusals of the credential: not signed in, another learner's certificate, none at all. */
const REFUSED = new Set([401, 403, 404]);

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
