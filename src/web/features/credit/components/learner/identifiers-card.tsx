import type { Identifiers } from "@contract";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { Button } from "../../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../../../../components/ui/card";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../../lib/api-client";
import { useLinkedCard } from "../../../../lib/use-linked-card";
import { useIdentifiers } from "../../api/get-identifiers";
import { useUpdateIdentifiers } from "../../api/update-identifiers";
import {
  BLANK_LICENCE,
  IdentifierFields,
  type IdentifierGroup,
  type IdentifiersForm,
  identifiersResolver,
  patchOf,
} from "./identifier-fields";

/** The address a course's checklist links to when its certificate waits for the licence. */
const LICENCE_ANCHOR = "licence";

/** The profile edits the whole record. */
const GROUPS: readonly IdentifierGroup[] = [
  "licences",
  "npi",
  "nabpEpid",
  "npn",
  "name",
  "birth",
  "profession",
  "board",
];

/**
 * The learner's professional identifiers, all in one place: their licences, NPI, NABP
 * e-Profile ID and NPN, and what regulators match them by. Certificates print the first
 * licence; an attestation asks only for what its credit needs and this lacks, and saves it
 * here.
 */
export function IdentifiersCard({ onSaved }: { onSaved?: () => void }) {
  const query = useIdentifiers();
  const cardRef = useLinkedCard(LICENCE_ANCHOR, query.isSuccess);

  return (
    <Card
      ref={cardRef}
      id={LICENCE_ANCHOR}
      role="region"
      aria-labelledby="identifiers-title"
      className="scroll-mt-24"
    >
      <CardHeader>
        <CardTitle id="identifiers-title">Professional licences and identifiers</CardTitle>
        <CardDescription>
          Give them once. Certificates of accredited courses print your first licence, and
          completions reported to ACCME PARS, CE Broker or CPE Monitor send what each needs.
          Attestations ask only for what is missing here.
        </CardDescription>
      </CardHeader>
      {query.isPending ? (
        <CardContent className="grid gap-5 sm:grid-cols-2" aria-hidden="true">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="grid gap-2">
              <Skeleton className="h-4 w-28" />
              <Skeleton className="h-10 w-full rounded-lg" />
            </div>
          ))}
        </CardContent>
      ) : query.isError ? (
        <CardContent>
          <LoadError
            message={loadFailureHint(
              query.error,
              "We couldn't load your licences and identifiers.",
            )}
            onRetry={() => void query.refetch()}
          />
        </CardContent>
      ) : (
        <IdentifiersEditor saved={query.data} onSaved={onSaved} />
      )}
    </Card>
  );
}

/** The record with a blank licence row to start from when it has none. */
const formValuesOf = (saved: Identifiers): IdentifiersForm => ({
  ...saved,
  licences: saved.licences.length ? saved.licences : [BLANK_LICENCE],
});

function IdentifiersEditor({ saved, onSaved }: { saved: Identifiers; onSaved?: () => void }) {
  const update = useUpdateIdentifiers();
  const resolver = useMemo(() => identifiersResolver(GROUPS, saved), [saved]);
  const form = useForm<IdentifiersForm>({ resolver, values: formValuesOf(saved) });
  const {
    handleSubmit,
    formState: { isDirty },
  } = form;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const stored = await update.mutateAsync(patchOf(values, GROUPS, saved));
      form.reset(formValuesOf(stored));
      toast({
        title: "Identifiers saved",
        description: "Your next certificates and claims use them.",
      });
      onSaved?.();
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Could not save your identifiers",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Professional licences and identifiers">
      <CardContent>
        <IdentifierFields form={form} groups={GROUPS} idPrefix="profile" />
      </CardContent>
      <CardFooter className="flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-zinc-600">
          Only your licence and NPN are printed; your NPI, e-Profile ID and date of birth never are.
        </p>
        <Button type="submit" className="w-full sm:w-auto" disabled={!isDirty || update.isPending}>
          {update.isPending ? <Spinner /> : null}
          Save identifiers
        </Button>
      </CardFooter>
    </form>
  );
}
