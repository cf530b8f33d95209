import { ShieldAlertIcon, ShieldCheckIcon, ShieldXIcon } from "lucide-react";
import type { ReactNode } from "react";
import type {
  CredentialProblem,
  OpenBadgeVerification,
} from "../../../../contract/open-badge-verification";
import { cn } from "../../../lib/utils";

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

/** The colour and icon of a credential check's outcome, wherever the page shows one. */
export const CREDENTIAL_TONES: Record<
  OpenBadgeVerification["result"],
  { tone: string; icon: ReactNode }
> = {
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
export function described(
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
export function CheckPanel({
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
export function Outcome({
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
  const shown = CREDENTIAL_TONES[verification.result];
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
