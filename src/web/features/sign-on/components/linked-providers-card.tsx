import { KeyRoundIcon, LinkIcon } from "lucide-react";
import { useSearchParams } from "react-router";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { startUrl, useSignOnLinks, useSignOnProviders } from "../api/sign-on";
import { SignOnRefusalAlert } from "./sign-on-options";

/**
 * The profile's "Single sign-on" card for administrators: the identity providers their
 * account is linked to, and "Link {provider}" for the others. Administrators sign in
 * through a provider only once they linked it here.
 */
export function LinkedProvidersCard() {
  const providers = useSignOnProviders().data?.providers ?? [];
  const links = useSignOnLinks().data?.links ?? [];
  const [params] = useSearchParams();
  if (providers.length === 0 && !params.get("signOnError")) return null;
  const linked = new Set(links.map((l) => l.providerId));
  return (
    <Card role="region" aria-labelledby="linked-providers-title">
      <CardHeader>
        <CardTitle id="linked-providers-title" className="flex items-center gap-2">
          <KeyRoundIcon className="size-5 text-indigo-600" aria-hidden="true" />
          Single sign-on
        </CardTitle>
        <CardDescription>
          Link your account to your organisation's identity provider to sign in through it.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <SignOnRefusalAlert />
        <ul className="grid gap-2">
          {providers.map((provider) => (
            <li
              key={provider.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-zinc-200 px-3 py-2"
            >
              <span className="text-sm font-medium text-zinc-900">{provider.name}</span>
              {linked.has(provider.id) ? (
                <span className="text-sm text-emerald-800">Linked</span>
              ) : (
                <Button asChild variant="outline" size="sm">
                  <a href={startUrl(provider.id, "link")}>
                    <LinkIcon aria-hidden="true" />
                    {`Link ${provider.name}`}
                  </a>
                </Button>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
