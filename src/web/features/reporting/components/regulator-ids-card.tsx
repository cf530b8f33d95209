import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { LoadError } from "../../../components/ui/load-error";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";
import { useLinkedCard } from "../../../lib/use-linked-card";
import { useMyRegulatorIds } from "../api/get-my-regulator-ids";
import { RegulatorIdsForm } from "./regulator-ids-form";

/** The address the attestation page links to for editing the identifiers. */
const REGULATOR_IDS_ANCHOR = "regulator-ids";

/**
 * The profile's identifiers for regulators: entered once, shown again (filled in) before each
 * attestation whose credit is reported. Only the learner, the administrators and the report
 * files see them.
 */
export function RegulatorIdsCard() {
  const query = useMyRegulatorIds();
  const cardRef = useLinkedCard(REGULATOR_IDS_ANCHOR, query.isSuccess);

  return (
    <Card
      ref={cardRef}
      id={REGULATOR_IDS_ANCHOR}
      role="region"
      aria-labelledby="regulator-ids-title"
      className="scroll-mt-24"
    >
      <CardHeader>
        <CardTitle id="regulator-ids-title">Credit reporting</CardTitle>
        <CardDescription>
          Accredited providers report your completions to ACCME PARS, CE Broker or CPE Monitor,
          where your licensing board reads them. Give what your regulator needs once; each claim
          keeps a copy.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <div className="grid gap-5 sm:grid-cols-2" aria-hidden="true">
            {[0, 1, 2, 3].map((i) => (
              <div key={i} className="grid gap-2">
                <Skeleton className="h-4 w-28" />
                <Skeleton className="h-10 w-full rounded-lg" />
              </div>
            ))}
          </div>
        ) : query.isError ? (
          <LoadError
            message={loadFailureHint(query.error, "We couldn't load your identifiers.")}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <RegulatorIdsForm
            ids={query.data.ids}
            footnote="Never printed on certificates or shown to anyone checking them."
          />
        )}
      </CardContent>
    </Card>
  );
}
