import { type Activity, hasLicenceOnFile } from "@contract";
import { CircleCheckIcon, IdCardIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { useIdentifiers } from "../../api/get-identifiers";

/** The names of the credit types that ask the learner for a professional licence. */
const typesNeedingLicence = (a: Activity): string[] =>
  a.creditTypes.filter((t) => t.licenceRequired).map((t) => t.name);

/**
 * Says on About this activity that the credit asks for a professional licence, so it is no
 * surprise after claiming: whether one is on file, and where it is asked for. Renders nothing
 * when no credit type asks for one.
 */
export function LicenceNotice({ activity }: { activity: Activity }) {
  const names = typesNeedingLicence(activity);
  const identifiersQuery = useIdentifiers({ enabled: names.length > 0 });
  if (!names.length) return null;
  const onFile = identifiersQuery.data ? hasLicenceOnFile(identifiersQuery.data) : null;
  const which = `Claiming ${names.join(" or ")} asks for`;
  return (
    <section
      aria-labelledby="licence-notice-title"
      data-testid="licence-notice"
      data-on-file={onFile === null ? undefined : String(onFile)}
      className="grid gap-3 rounded-xl border border-sky-200 bg-sky-50 p-4 text-sm text-sky-950"
    >
      <div className="flex items-start gap-2.5">
        <IdCardIcon className="mt-0.5 size-4 shrink-0 text-sky-700" aria-hidden="true" />
        <div className="grid min-w-0 gap-1">
          <h2 id="licence-notice-title" className="font-semibold">
            Professional licence required
          </h2>
          <p className="leading-relaxed">
            {which} your professional licence: your certificate prints it, and it is issued once
            your licence is on file. The attestation asks for it if your profile lacks it.
          </p>
          {onFile ? (
            <p className="flex items-center gap-1.5 font-medium text-emerald-800">
              <CircleCheckIcon className="size-4 shrink-0" aria-hidden="true" />
              Your licence is on file.
            </p>
          ) : null}
        </div>
      </div>
      {onFile === false ? (
        <div>
          <Button asChild variant="outline" size="sm" className="bg-white">
            <Link to="/profile#licence">Add your licence in your profile</Link>
          </Button>
        </div>
      ) : null}
    </section>
  );
}
