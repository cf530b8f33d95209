import { ShieldAlertIcon, ShieldCheckIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { loadFailureHint } from "../../../lib/api-client";
import { useAuditChain } from "../api/verify-audit-chain";

/** Checks the hash chain on demand (it reads the whole trail) and shows the result. */
export function AuditChainCard() {
  const [requested, setRequested] = useState(false);
  const chain = useAuditChain(requested);
  const report = chain.data;
  return (
    <Card role="region" aria-labelledby="audit-chain-title">
      <CardHeader>
        <CardTitle id="audit-chain-title">Integrity check</CardTitle>
        <CardDescription>
          Every event is chained to the one before it by a SHA-256 hash, so an edited or deleted
          record is detected. The same check runs with{" "}
          <code className="font-mono">npm run audit:verify</code>.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {report ? (
          <div
            role="status"
            data-testid="audit-chain-status"
            className={
              report.ok
                ? "flex items-start gap-3 rounded-xl bg-emerald-50 p-4 text-sm text-emerald-950"
                : "flex items-start gap-3 rounded-xl bg-red-50 p-4 text-sm text-red-950"
            }
          >
            {report.ok ? (
              <ShieldCheckIcon className="size-5 shrink-0 text-emerald-700" aria-hidden="true" />
            ) : (
              <ShieldAlertIcon className="size-5 shrink-0 text-red-700" aria-hidden="true" />
            )}
            <p className="grid min-w-0 gap-1">
              <span className="font-semibold">
                {report.ok
                  ? `Chain intact: ${report.checked} events checked.`
                  : `Chain broken at event ${report.broken?.seq}: ${report.broken?.reason}.`}
              </span>
              {report.unlinked > 0 ? (
                <span>
                  {report.unlinked === 1
                    ? "1 newer event is still being chained; verify again in a moment."
                    : `${report.unlinked} newer events are still being chained; verify again in a moment.`}
                </span>
              ) : null}
              {report.headHash ? (
                <span className="font-mono text-xs break-all">Head hash {report.headHash}</span>
              ) : null}
            </p>
          </div>
        ) : null}
        {chain.isError ? (
          <p role="alert" className="text-sm text-red-800">
            {loadFailureHint(chain.error, "The check could not run. Try again.")}
          </p>
        ) : null}
        <div>
          <Button
            variant="outline"
            disabled={chain.isFetching}
            onClick={() => (requested ? void chain.refetch() : setRequested(true))}
          >
            {chain.isFetching ? <Spinner /> : <ShieldCheckIcon aria-hidden="true" />}
            Verify the chain
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
