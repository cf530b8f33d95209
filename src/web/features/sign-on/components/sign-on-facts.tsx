import { KeyRoundIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";
import { useSignOnUser } from "../api/sign-on-user";

/**
 * On a learner's record: "Created by sign-on ({provider})" when an identity provider created
 * the learner, and the providers their account is linked to. Nothing for anyone else.
 */
export function SignOnFacts({ userId }: { userId: string }) {
  const facts = useSignOnUser(userId).data;
  if (!facts || (!facts.createdBySignOn && facts.links.length === 0)) return null;
  const { createdBySignOn } = facts;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="sign-on-facts">
      {createdBySignOn ? (
        <Badge variant="outline">
          <KeyRoundIcon aria-hidden="true" />
          {createdBySignOn.providerName
            ? `Created by sign-on (${createdBySignOn.providerName})`
            : "Created by sign-on"}
        </Badge>
      ) : null}
      {facts.links.map((link) => (
        <Badge key={link.providerId} variant="secondary">
          Signs in with {link.name}
        </Badge>
      ))}
    </div>
  );
}
