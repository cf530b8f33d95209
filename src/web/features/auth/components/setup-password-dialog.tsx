import { MIN_PASSWORD_LENGTH, TOASTS } from "@contract";
import { LockIcon, MailCheckIcon } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
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
import { useProductName } from "../../../lib/app-config";
import { listText } from "../../../lib/format";
import { cn } from "../../../lib/utils";
import { useSession } from "../session-context";
import { useEmailVerification } from "./use-email-verification";

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

/** The email verified first, then the name and the password (SPEC section 4). */
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
  // The email step's outcome decides what the rest of the form shows.
  const emailStep = useEmailVerification({ lockedEmail, suggestedEmail, linkToken, onDone });
  const { email, name, inviteToken, verification, verified } = emailStep;
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [submitting, setSubmitting] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (verification !== "verified") return;
    (nameInput.current?.value ? passwordInput.current : nameInput.current)?.focus();
  }, [verification]);

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
      {emailStep.staleLink && !verified && verification !== "invite-sent" ? (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-900"
        >
          This invitation link has already been used or has expired. Press Verify to continue.
        </p>
      ) : emailStep.inviteOnly && verification !== "invite-sent" ? (
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
              onChange={(event) => emailStep.onEmailChange(event.target.value)}
              onKeyDown={emailStep.onEmailKeyDown}
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
            onClick={() => void emailStep.verify()}
            disabled={!email || emailStep.checking || submitting}
            className="min-w-20"
          >
            {emailStep.checking ? <Spinner /> : null}
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
          {emailStep.checking ? <span className="font-normal text-zinc-600">Checking…</span> : null}
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
              onChange={(event) => emailStep.setName(event.target.value)}
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
