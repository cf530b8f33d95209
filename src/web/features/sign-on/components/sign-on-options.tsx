import { SIGN_ON_REFUSALS, type SignOnRefusal } from "@contract";
import { KeyRoundIcon } from "lucide-react";
import { useSearchParams } from "react-router";
import { Button } from "../../../components/ui/button";
import { startUrl, useDiscoveredProvider, useSignOnProviders } from "../api/sign-on";

const isRefusal = (value: string): value is SignOnRefusal => value in SIGN_ON_REFUSALS;

/**
 * Why the last single sign-on was refused, from `?signOnError=` (the portal sends the
 * browser back there): the spec's own sentences for a restricted or unregistered learner.
 */
export function SignOnRefusalAlert() {
  const [params] = useSearchParams();
  const reason = params.get("signOnError");
  if (!reason) return null;
  return (
    <div
      role="alert"
      data-testid="sign-on-error"
      className="mb-6 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm leading-relaxed text-red-900"
    >
      {isRefusal(reason)
        ? SIGN_ON_REFUSALS[reason]
        : "Single sign-on did not complete. Please try again."}
    </div>
  );
}

/**
 * The sign-in page's "Continue with {provider}" buttons, one per identity provider, and a
 * hint pointing at the one that serves the typed email's domain.
 */
export function SignOnButtons({ typedEmail }: { typedEmail: string }) {
  const providers = useSignOnProviders().data?.providers ?? [];
  const discovered = useDiscoveredProvider(typedEmail).data?.provider;
  if (providers.length === 0) return null;
  return (
    <section aria-label="Single sign-on" className="mt-6 grid gap-3">
      <div className="flex items-center gap-3 text-xs text-zinc-500">
        <span className="h-px flex-1 bg-zinc-200" aria-hidden="true" />
        or
        <span className="h-px flex-1 bg-zinc-200" aria-hidden="true" />
      </div>
      {discovered ? (
        <p
          data-testid="sign-on-hint"
          aria-live="polite"
          className="rounded-lg bg-indigo-50 px-3 py-2.5 text-sm leading-relaxed text-indigo-950"
        >
          Your organisation signs you in with {discovered.name}: use{" "}
          <span className="font-semibold">Continue with {discovered.name}</span>.
        </p>
      ) : null}
      {providers.map((provider) => (
        <Button
          key={provider.id}
          asChild
          variant={discovered?.id === provider.id ? "default" : "outline"}
          className="w-full"
        >
          <a href={startUrl(provider.id)}>
            <KeyRoundIcon aria-hidden="true" />
            Continue with {provider.name}
          </a>
        </Button>
      ))}
    </section>
  );
}
