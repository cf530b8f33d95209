import { type Activity, hasLicence, isPluralCreditName } from "@contract";
import { CircleCheckIcon, IdCardIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { capitalised, listText } from "../../../../lib/format";
import { useLicence } from "../../api/get-licence";

/** The names of the credit types that ask the learner for a professional licence. */
const typesNeedingLicence = (a: Activity): string[] =>
  a.creditTypes.filter((t) => t.licenceRequired).map((t) => t.name);

/**
 * Says before the learner attests (and on About this activity) that the credit asks for a
 * professional licence, so it is no surprise after claiming: whether one is on file, and
 * the way to enter it. Renders nothing when no credit type asks for one.
 */
export function LicenceNotice({ activity }: { activity: Activity }) {
  const names = typesNeedingLicence(activity);
  const licenceQuery = useLicence({ enabled: names.length > 0 });
  if (!names.length) return null;
  const onFile = licenceQuery.data ? hasLicence(licenceQuery.data) : null;
  // "Contact hours require", "AMA PRA Category 1 Credit™ requires", "A and B require".
  const plural = names.length > 1 || isPluralCreditName(names[0]!);
  const which = `${capitalised(listText(names))} ${plural ? "require" : "requires"}`;
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
            {which} your professional licence: your certificate prints it, and it is issued only
            once your licence is in your profile.
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
