import type { SecondStep, User } from "@contract";
import { ArrowLeftIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Logo } from "../../components/logo";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { ResetPasswordForm } from "../../features/auth/components/reset-password-form";
import { homePathFor, useSession } from "../../features/auth/session-context";
import { useProductName } from "../../lib/app-config";
import { useDocumentTitle } from "../../lib/use-document-title";

// An administrator's second step, only after a reset of an account that has one.
const SecondStepPanel = lazy(() =>
  import("../../features/second-factor/components/second-step-panel").then((m) => ({
    default: m.SecondStepPanel,
  })),
);

/** /reset-password?token=…: the page the emailed reset link opens. Public, no guard. */
export function ResetPasswordRoute() {
  const productName = useProductName();
  const navigate = useNavigate();
  const { acceptSignIn } = useSession();
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token")?.trim() || null;
  // A reset link proves the mailbox only: an administrator's second factor still counts.
  const [secondStep, setSecondStep] = useState<SecondStep>();
  useDocumentTitle("Reset password");

  function signedIn(user: User) {
    toast({
      title: "Password updated",
      description: `You're signed in with your new password. Welcome back, ${user.name}!`,
    });
    navigate(homePathFor(user), { replace: true });
  }

  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 px-5 py-8 sm:px-8">
      <header className="mx-auto flex w-full max-w-md items-center justify-center sm:justify-start">
        <Link
          to="/"
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <Logo name={productName} />
        </Link>
      </header>
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
        <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-xl shadow-zinc-950/5 sm:p-8">
          {secondStep ? (
            <div className="grid gap-6">
              <h1 className="text-[28px] leading-tight font-semibold tracking-tight text-zinc-950">
                Password updated
              </h1>
              <Suspense fallback={<Spinner />}>
                <SecondStepPanel
                  step={secondStep}
                  onSignedIn={(user) => {
                    acceptSignIn(user);
                    navigate(homePathFor(user), { replace: true });
                  }}
                  onCancel={() => navigate("/", { replace: true })}
                />
              </Suspense>
            </div>
          ) : (
            <ResetPasswordForm
              token={token}
              onReset={(result) =>
                "user" in result ? signedIn(result.user) : setSecondStep(result.secondFactor)
              }
            />
          )}
        </div>
        {/* The second step has its own way back. */}
        {secondStep ? null : (
          <Link
            to="/"
            className="mx-auto mt-6 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-zinc-600 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          >
            <ArrowLeftIcon className="size-4" aria-hidden="true" />
            Back to sign in
          </Link>
        )}
      </main>
    </div>
  );
}
