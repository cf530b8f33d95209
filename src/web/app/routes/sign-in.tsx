import { type SecondStep, TOASTS } from "@contract";
import { BadgeCheckIcon, CirclePlayIcon, TrendingUpIcon } from "lucide-react";
import { lazy, Suspense, useEffect, useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { FullPageLoader } from "../../components/full-page-loader";
import { Logo, LogoMark } from "../../components/logo";
import { Button } from "../../components/ui/button";
import { Spinner } from "../../components/ui/spinner";
import { toast } from "../../components/ui/use-toast";
import { SignInForm } from "../../features/auth/components/sign-in-form";
import { homePathFor, useSession } from "../../features/auth/session-context";
import {
  SignOnButtons,
  SignOnRefusalAlert,
} from "../../features/sign-on/components/sign-on-options";
import { useProductName } from "../../lib/app-config";
import { preloadable } from "../../lib/preloadable";
import { useDocumentTitle } from "../../lib/use-document-title";
import { cn } from "../../lib/utils";
import { DeferredDialog } from "./deferred-dialog";

// The three dialogs load after the first render (the budget for the sign-in page).
const forgotPasswordDialog = preloadable(() =>
  import("../../features/auth/components/forgot-password-dialog").then(
    (m) => m.ForgotPasswordDialog,
  ),
);
const setupPasswordDialog = preloadable(() =>
  import("../../features/auth/components/setup-password-dialog").then((m) => m.SetupPasswordDialog),
);
const adminSetupDialog = preloadable(() =>
  import("../../features/auth/components/admin-setup-dialog").then((m) => m.AdminSetupDialog),
);

// An administrator's second step, only after a right password of an account that has one.
const SecondStepPanel = lazy(() =>
  import("../../features/second-factor/components/second-step-panel").then((m) => ({
    default: m.SecondStepPanel,
  })),
);

const HIGHLIGHTS = [
  { icon: CirclePlayIcon, text: "Video modules, unlocked one step at a time" },
  { icon: TrendingUpIcon, text: "Progress saved on every module you finish" },
  { icon: BadgeCheckIcon, text: "A certificate for every completed course" },
] as const;

/** SPEC section 2 "Sign-in screen" at /. */
export function SignInRoute() {
  const { user, loading, acceptSignIn } = useSession();
  const [secondStep, setSecondStep] = useState<SecondStep>();
  const productName = useProductName();
  const [searchParams, setSearchParams] = useSearchParams();
  useDocumentTitle("Sign in");
  // Fetch the dialogs' code while the session resolves, so their buttons work at once.
  useEffect(() => {
    for (const dialog of [forgotPasswordDialog, setupPasswordDialog, adminSetupDialog]) {
      dialog.preload();
    }
  }, []);

  // Invitation links open the setup dialog: /?setup=1&email=...&token=...
  const invited = searchParams.get("setup") === "1";
  const invitedEmail = invited ? searchParams.get("email")?.trim() || undefined : undefined;
  const inviteToken = invited ? searchParams.get("token") || undefined : undefined;

  const [setupOpen, setSetupOpen] = useState(invited);
  // The email typed in the sign-in form when its hint opened the setup dialog.
  const [setupSuggestedEmail, setSetupSuggestedEmail] = useState<string>();
  const [adminSetupOpen, setAdminSetupOpen] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  // The email typed so far, for the single sign-on hint.
  const [typedEmail, setTypedEmail] = useState("");

  function onSetupOpenChange(open: boolean) {
    setSetupOpen(open);
    if (!open) setSetupSuggestedEmail(undefined);
    if (!open && invited) setSearchParams({}, { replace: true });
  }

  if (loading) return <FullPageLoader />;
  if (user) return <Navigate to={homePathFor(user)} replace />;

  return (
    <div className="grid min-h-dvh bg-white lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside
        className={cn(
          "relative hidden overflow-hidden bg-indigo-950 text-white lg:flex lg:flex-col lg:justify-between lg:p-12 xl:p-16",
          "bg-[radial-gradient(60rem_40rem_at_110%_-10%,rgb(79_70_229/0.55),transparent_60%),radial-gradient(40rem_30rem_at_-10%_110%,rgb(124_58_237/0.35),transparent_60%)]",
        )}
      >
        <Logo name={productName} className="relative text-white" />
        <div className="relative grid max-w-md gap-8">
          <div className="grid gap-4">
            <p className="text-[2rem] leading-tight font-semibold tracking-tight text-balance">
              Courses that count toward your credits.
            </p>
            <p className="text-base leading-relaxed text-indigo-100">
              Learn at your own pace, pick up where you left off and keep proof of every course you
              complete.
            </p>
          </div>
          <ul className="grid gap-3.5">
            {HIGHLIGHTS.map(({ icon: Icon, text }) => (
              <li key={text} className="flex items-center gap-3 text-[15px] text-indigo-50">
                <span className="flex size-8 items-center justify-center rounded-lg bg-white/10 ring-1 ring-white/15">
                  <Icon className="size-4" aria-hidden="true" />
                </span>
                {text}
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-sm text-indigo-200">
          © {new Date().getFullYear()} {productName}
        </p>
      </aside>

      <main className="flex min-h-dvh flex-col px-5 py-10 sm:px-8">
        <div className="mx-auto flex w-full max-w-sm flex-1 flex-col justify-center">
          <div className="mb-8 grid gap-2">
            <LogoMark className="mb-4 size-10 lg:hidden" />
            <h1 className="text-[28px] leading-tight font-semibold tracking-tight text-zinc-950">
              {productName}
            </h1>
            <p className="text-[15px] text-zinc-600">Sign in to your learning portal</p>
          </div>

          {secondStep ? (
            <Suspense fallback={<Spinner />}>
              <SecondStepPanel
                step={secondStep}
                onSignedIn={acceptSignIn}
                onCancel={() => setSecondStep(undefined)}
              />
            </Suspense>
          ) : (
            <>
              <SignOnRefusalAlert />
              <SignInForm
                onSecondStep={setSecondStep}
                onTypedEmailChange={setTypedEmail}
                forgotPassword={(typedEmail) => (
                  <DeferredDialog
                    loader={forgotPasswordDialog}
                    open={forgotOpen}
                    onOpenChange={setForgotOpen}
                    defaultEmail={typedEmail || undefined}
                    trigger={
                      <Button variant="link" size="sm" className="h-auto text-[13px]">
                        Forgot password?
                      </Button>
                    }
                  />
                )}
                onSetUpPassword={(typedEmail) => {
                  setSetupSuggestedEmail(typedEmail || undefined);
                  setSetupOpen(true);
                }}
                onSignedIn={() =>
                  toast({ title: TOASTS.loginSuccessScreen, description: TOASTS.welcomeBackScreen })
                }
              />
              <SignOnButtons typedEmail={typedEmail} />

              <section
                aria-labelledby="first-time-heading"
                className="mt-8 rounded-xl border border-zinc-200 bg-zinc-50 p-4 sm:p-5"
              >
                <h2 id="first-time-heading" className="text-sm font-semibold text-zinc-900">
                  First time logging in?
                </h2>
                <p className="mt-1 text-sm text-zinc-600">
                  Use the email your administrator registered to create your password.
                </p>
                <DeferredDialog
                  loader={setupPasswordDialog}
                  open={setupOpen}
                  onOpenChange={onSetupOpenChange}
                  email={invitedEmail}
                  suggestedEmail={setupSuggestedEmail}
                  inviteToken={inviteToken}
                  trigger={
                    <Button variant="outline" className="mt-4 w-full">
                      Set Your Password
                    </Button>
                  }
                />
              </section>
            </>
          )}
        </div>

        <div className="mx-auto mt-10 flex w-full max-w-sm justify-center">
          <DeferredDialog
            loader={adminSetupDialog}
            open={adminSetupOpen}
            onOpenChange={setAdminSetupOpen}
            trigger={
              <Button
                variant="link"
                size="sm"
                className="text-xs font-normal text-zinc-600 hover:text-zinc-900"
              >
                Administrator setup
              </Button>
            }
          />
        </div>
      </main>
    </div>
  );
}
