import { EMPTY_LICENCE, type Licence, licenceBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button } from "../../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../../../../components/ui/card";
import { Field, fieldAria } from "../../../../components/ui/field";
import { Input } from "../../../../components/ui/input";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { Spinner } from "../../../../components/ui/spinner";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../../lib/api-client";
import { useLinkedCard } from "../../../../lib/use-linked-card";
import { useLicence } from "../../api/get-licence";
import { useUpdateLicence } from "../../api/update-licence";

type LicenceInput = z.input<typeof licenceBodySchema>;

/** The address a course's checklist links to when its certificate waits for the licence. */
const LICENCE_ANCHOR = "licence";

/**
 * The learner's professional licence (type, number, issuing state or board, or an insurance
 * producer's NPN), printed on the certificates of accredited courses; a course may require it
 * before issuing its certificate.
 */
export function LicenceCard({ onSaved }: { onSaved?: () => void }) {
  const query = useLicence();
  const cardRef = useLinkedCard(LICENCE_ANCHOR, query.isSuccess);

  return (
    <Card
      ref={cardRef}
      id={LICENCE_ANCHOR}
      role="region"
      aria-labelledby="licence-title"
      className="scroll-mt-24"
    >
      <CardHeader>
        <CardTitle id="licence-title">Professional licence</CardTitle>
        <CardDescription>
          Certificates of accredited courses print your licence. Some courses ask for it before they
          issue your certificate.
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
            message={loadFailureHint(query.error, "We couldn't load your licence details.")}
            onRetry={() => void query.refetch()}
          />
        </CardContent>
      ) : (
        <LicenceForm licence={query.data} onSaved={onSaved} />
      )}
    </Card>
  );
}

function LicenceForm({ licence, onSaved }: { licence: Licence; onSaved?: () => void }) {
  const update = useUpdateLicence();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<LicenceInput, unknown, Licence>({
    resolver: zodResolver(licenceBodySchema),
    values: { ...EMPTY_LICENCE, ...licence },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await update.mutateAsync(values);
      reset(saved);
      toast({ title: "Licence saved", description: "Your certificates will print it." });
      onSaved?.();
    } catch (error) {
      toast({
        variant: "destructive",
        title: "Could not save your licence",
        description: getErrorMessage(error) ?? "Please try again.",
      });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Professional licence">
      <CardContent className="grid gap-5 sm:grid-cols-2">
        <Field id="licence-type" label="Licence type" error={errors.licenceType?.message}>
          <Input
            id="licence-type"
            placeholder="e.g. CPA, RN, MD"
            {...fieldAria("licence-type", errors.licenceType)}
            {...register("licenceType")}
          />
        </Field>
        <Field id="licence-number" label="Licence number" error={errors.licenceNumber?.message}>
          <Input
            id="licence-number"
            {...fieldAria("licence-number", errors.licenceNumber)}
            {...register("licenceNumber")}
          />
        </Field>
        <Field
          id="licence-state"
          label="Issuing state or board"
          error={errors.licenceState?.message}
        >
          <Input
            id="licence-state"
            placeholder="e.g. California Board of Accountancy"
            {...fieldAria("licence-state", errors.licenceState)}
            {...register("licenceState")}
          />
        </Field>
        <Field
          id="licence-npn"
          label="NPN"
          hint="Insurance producers: your National Producer Number, up to 10 digits."
          error={errors.npn?.message}
        >
          <Input
            id="licence-npn"
            inputMode="numeric"
            autoComplete="off"
            {...fieldAria("licence-npn", errors.npn, { hint: true })}
            {...register("npn")}
          />
        </Field>
      </CardContent>
      <CardFooter className="justify-between">
        <p className="text-xs text-zinc-600">
          A licence type and number, or an NPN, is what a course asking for a licence accepts.
        </p>
        <Button type="submit" className="w-full sm:w-auto" disabled={!isDirty || update.isPending}>
          {update.isPending ? <Spinner /> : null}
          Save licence
        </Button>
      </CardFooter>
    </form>
  );
}
