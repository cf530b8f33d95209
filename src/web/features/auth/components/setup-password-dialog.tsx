import { MESSAGES, MIN_PASSWORD_LENGTH, SETUP_DIALOG_AUTO_CLOSE_MS, TOASTS } from "@contract";
import { LockIcon, MailCheckIcon } from "lucide-react";
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from "react";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { Field } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { PasswordInput } from "../../../components/ui/password-input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { isApiError } from "../../../lib/api-client";
import { useAppConfig, useConfigForAction, useProductName } from "../../../lib/app-config";
import { listText } from "../../../lib/format";
import { cn } from "../../../lib/utils";
import { checkEmailRegistration } from "../api/check-email";
import { checkPasswordSetup } from "../api/check-password-setup";
import { getInvitation } from "../api/get-invitation";
import { resendInvitation } from "../api/resend-invitation";
import { useSession } from "../session-context";

type SetupPasswordDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Pre-fills the email and locks it (invitation links). */
  email?: string;
  /** Pre-fills the email, still editable (the address typed on the sign-in form). */
  suggestedEmail?: string;
  /** The invitation token from the setup link, passed on to the server. */
  inviteToken?: string;
  /** The button that opens it; focus returns there on close. */
  trigger?: ReactNode;
};

/** SPEC sections 2 and 4: the first-time password setup dialog. */
export function SetupPasswordDialog({
  open,
  onOpenChange,
  email,
  suggestedEmail,
  inviteToken,
  trigger,
}: SetupPasswordDialogProps) {
  const productName = useProductName();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent aria-describedby="setup-dialog-welcome">
        <DialogHeader>
          <DialogTitle>Set Up Your Password</DialogTitle>
          <DialogDescription id="setup-dialog-welcome">
            Welcome to {productName} LMS! Please set up your password to continue.
          </DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from a clean state. */}
        <SetupPasswordForm
          lockedEmail={email}
          suggestedEmail={suggestedEmail}
          inviteToken={inviteToken}
          onDone={() => onOpenChange(false)}
        />
      </DialogContent>
    </Dialog>
  );
}

/**
 * idle → checking → verified | unregistered | already-set (SPEC section 4 steps 1-7). In
 * invite mode without the emailed token, a registered email ends in invite-sent instead of
 * verified: a fresh invitation link is mailed rather than showing the password fields.
 */
type Verification =
  | "idle"
  | "checking"
  | "verified"
  | "unregistered"
  | "already-set"
  | "invite-sent";

function SetupPasswordForm({
  lockedEmail,
  suggestedEmail,
  inviteToken: linkToken,
  onDone,
}: {
  lockedEmail?: string;
  suggestedEmail?: string;
  inviteToken?: string;
  onDone: () => void;
}) {
  const { setupPassword } = useSession();
  const { passwordSetupMode } = useAppConfig();
  const configForAction = useConfigForAction();
  const [email, setEmail] = useState(lockedEmail ?? suggestedEmail ?? "");
  // An invitation link is looked up first: holding it proves the mailbox, so a live one
  // starts verified, with the name the administrator entered.
  const [inviteToken, setInviteToken] = useState(linkToken);
  const [verification, setVerification] = useState<Verification>(linkToken ? "checking" : "idle");
  const [staleLink, setStaleLink] = useState(false);
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const nameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => clearTimeout(closeTimer.current), []);
  useEffect(() => {
    if (verification !== "verified") return;
    (nameInput.current?.value ? passwordInput.current : nameInput.current)?.focus();
  }, [verification]);
  useEffect(() => {
    if (!linkToken) return;
    let current = true;
    getInvitation(linkToken).then(
      (invitation) => {
        if (!current) return;
        setEmail(invitation.email);
        setName(invitation.name);
        setVerification("verified");
      },
      (error: unknown) => {
        if (!current) return;
        // A used or expired link is no proof: the spec's Verify takes over (in invite mode
        // it mails a fresh link). Without an answer at all, the link may still be good.
        if (isApiError(error, "auth.invitation_invalid")) {
          setInviteToken(undefined);
          setStaleLink(true);
        }
        setVerification("idle");
      },
    );
    return () => {
      current = false;
    };
  }, [linkToken]);

  const checking = verification === "checking";
  const verified = verification === "verified";
  /** In invite mode, without an invitation's token the password is set from a mailed link. */
  const inviteOnlyIn = (mode: typeof passwordSetupMode) => mode === "invite" && !inviteToken;
  const inviteOnly = inviteOnlyIn(passwordSetupMode);

  async function verify() {
    const address = email.trim();
    if (!address) {
      toast({
        variant: "destructive",
        title: TOASTS.emailRequired,
        description: TOASTS.emailRequiredDescription,
      });
      return;
    }
    setVerification("checking");
    try {
      // The mode as the portal runs it, not the page's default while its settings load.
      const mailsInvitation = inviteOnlyIn(
        (await configForAction())?.passwordSetupMode ?? passwordSetupMode,
      );
      const registered = await checkEmailRegistration(address);
      if (!registered) {
        setVerification("unregistered");
        toast({
          variant: "destructive",
          title: TOASTS.emailNotFound,
          description: TOASTS.emailNotFoundDescription,
        });
        return;
      }
      const alreadySet = await checkPasswordSetup(address);
      if (alreadySet) {
        setVerification("already-set");
        toast({
          title: MESSAGES.passwordAlreadySet,
          description: MESSAGES.passwordAlreadySetDescription,
        });
        closeTimer.current = setTimeout(onDone, SETUP_DIALOG_AUTO_CLOSE_MS);
        return;
      }
      if (mailsInvitation) {
        await sendFreshInvitation(address);
        return;
      }
      setVerification("verified");
      toast({ title: TOASTS.emailVerified, description: TOASTS.emailVerifiedDescription });
    } catch {
      setVerification("idle");
      toast({
        variant: "destructive",
        title: TOASTS.emailCheckFailed,
        description: TOASTS.setupFailedFallback,
      });
    }
  }

  /** Invite mode: the password is set from the emailed link, so send a fresh one. */
  async function sendFreshInvitation(address: string) {
    try {
      await resendInvitation(address);
    } catch {
      setVerification("idle");
      toast({
        variant: "destructive",
        title: INVITATION_FAILED,
        description: TOASTS.resetEmailFailedDescription,
      });
      return;
    }
    setVerification("invite-sent");
    toast({ title: INVITATION_SENT, description: INVITATION_SENT_DESCRIPTION });
  }

  function onEmailChange(value: string) {
    setEmail(value);
    // SPEC section 4 step 7: editing the email resets the verified state.
    if (verification !== "checking") setVerification("idle");
  }

  function onEmailKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" && !verified) {
      event.preventDefault();
      if (!checking) void verify();
    }
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!verified) {
      toast({
        variant: "destructive",
        title: TOASTS.emailVerificationRequired,
        description: TOASTS.emailVerificationRequiredDescription,
      });
      return;
    }
    if (password !== confirmPassword) {
      toast({
        variant: "destructive",
        title: TOASTS.passwordMismatch,
        description: TOASTS.passwordMismatchDescription,
      });
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      toast({
        variant: "destructive",
        title: TOASTS.passwordTooShort,
        description: TOASTS.passwordTooShortDescription,
      });
      return;
    }
    setSubmitting(true);
    try {
      await setupPassword({ email: email.trim(), password, name: name.trim(), inviteToken });
      onDone();
    } catch {
      // SPEC section 4 step 8: swallowed here; the session layer has toasted it.
    } finally {
      setSubmitting(false);
    }
  }

  const submitDisabled = submitting || !name.trim() || !password || !confirmPassword;
  // A disabled button says nothing by itself: name what it waits for.
  const missing = [
    name.trim() ? null : "your full name",
    password ? null : "a password",
    confirmPassword ? null : "the password again",
  ].filter((field): field is string => field !== null);
  const submitHint =
    verification === "idle"
      ? "Verify your email first: the password fields appear once it is registered."
      : verified && !submitting && missing.length
        ? `To continue, enter ${listText(missing)}.`
        : null;

  // An email checked and refused (not registered, already set up) keeps the button
  // disabled: the status line beside the email says why, so the button points to it too.
  const submitDescribedBy = [
    submitHint ? "setup-submit-hint" : null,
    !verified && verification !== "idle" ? "setup-email-status" : null,
  ]
    .filter(Boolean)
    .join(" ");

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      {staleLink && !verified && verification !== "invite-sent" ? (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900"
        >
          This invitation link has already been used or has expired. Press Verify to continue.
        </p>
      ) : inviteOnly && verification !== "invite-sent" ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900">
          This portal sets passwords by invitation. Verify your email and we'll send you a fresh
          invitation link.
        </p>
      ) : null}
      <Field id="setup-email" label="Email address">
        <div className="flex gap-2">
          <div className="relative flex-1">
            <Input
              id="setup-email"
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder="you@example.com"
              required
              value={email}
              readOnly={!!lockedEmail}
              aria-describedby="setup-email-status"
              onChange={(event) => onEmailChange(event.target.value)}
              onKeyDown={onEmailKeyDown}
              className={cn(lockedEmail && "pr-9")}
            />
            {lockedEmail ? (
              <LockIcon
                className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-zinc-500"
                aria-hidden="true"
              />
            ) : null}
          </div>
          <Button
            variant="outline"
            onClick={() => void verify()}
            disabled={!email || checking || submitting}
            className="min-w-20"
          >
            {checking ? <Spinner /> : null}
            Verify
          </Button>
        </div>
        <p
          id="setup-email-status"
          aria-live="polite"
          className={cn(
            "min-h-5 text-sm font-medium",
            (verified || verification === "invite-sent") && "text-emerald-700",
            verification === "unregistered" && "text-red-700",
          )}
        >
          {verified || verification === "invite-sent" ? "✓ Email verified" : null}
          {verification === "unregistered" ? "✗ Email not registered" : null}
          {checking ? <span className="font-normal text-zinc-600">Checking…</span> : null}
          {verification === "already-set" ? (
            <span className="font-normal text-zinc-600">
              This email already has a password. Sign in instead.
            </span>
          ) : null}
        </p>
      </Field>

      {verified ? (
        <div className="grid gap-4 border-t border-zinc-100 pt-5">
          <Field id="setup-name" label="Full name">
            <Input
              id="setup-name"
              ref={nameInput}
              autoComplete="name"
              placeholder="Your full name"
              required
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
          </Field>
          <Field
            id="setup-password"
            label="Password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          >
            <PasswordInput
              id="setup-password"
              ref={passwordInput}
              autoComplete="new-password"
              placeholder="Create a password"
              required
              aria-describedby="setup-password-hint"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
          <Field id="setup-confirm" label="Confirm password">
            <PasswordInput
              id="setup-confirm"
              toggleLabel="confirm password"
              autoComplete="new-password"
              placeholder="Repeat the password"
              required
              value={confirmPassword}
              onChange={(event) => setConfirmPassword(event.target.value)}
            />
          </Field>
        </div>
      ) : null}

      {verification === "invite-sent" ? (
        <>
          <div
            role="status"
            className="flex gap-3 rounded-xl border border-indigo-100 bg-indigo-50/70 p-4 text-sm text-indigo-950"
          >
            <MailCheckIcon className="mt-0.5 size-5 shrink-0 text-indigo-700" aria-hidden="true" />
            <p className="leading-relaxed">
              We've emailed a fresh invitation link to{" "}
              <span className="font-semibold break-all">{email.trim()}</span>. Open it to set your
              password. The link works once.
            </p>
          </div>
          <Button size="lg" className="w-full" onClick={onDone}>
            Done
          </Button>
        </>
      ) : (
        <div className="grid gap-2">
          <Button
            type="submit"
            size="lg"
            className="w-full"
            disabled={submitDisabled}
            aria-describedby={submitDescribedBy || undefined}
          >
            {submitting ? (
              <>
                <Spinner />
                Setting up...
              </>
            ) : (
              "Set Password & Continue"
            )}
          </Button>
          {submitHint ? (
            <p id="setup-submit-hint" className="text-center text-sm text-zinc-600">
              {submitHint}
            </p>
          ) : null}
        </div>
      )}
    </form>
  );
}

/** Web-only texts of invite mode; the spec's own flow never shows them. */
const INVITATION_SENT = "Invitation sent";
const INVITATION_SENT_DESCRIPTION = "Check your inbox for a link to set your password.";
const INVITATION_FAILED = "Could not send the invitation";
