import type { SecondStep, User } from "@contract";
import { emailSchema } from "@contract";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import { Checkbox } from "../../../components/ui/checkbox";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Label } from "../../../components/ui/label";
import { PasswordInput } from "../../../components/ui/password-input";
import { Spinner } from "../../../components/ui/spinner";
import { useSession } from "../session-context";

const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Password is required"),
});

/** Each field's first message (the contract's wording), or nothing where it is valid. */
function validate(email: string, password: string): { email?: string; password?: string } {
  const parsed = signInSchema.safeParse({ email, password });
  if (parsed.success) return {};
  const first = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message;
  return { email: first("email"), password: first("password") };
}

type SignInFormProps = {
  /** Called after a successful sign-in (the session layer has already set the user). */
  onSignedIn?: (user: User) => void;
  /** The password was right, and the account's second factor is asked next. */
  onSecondStep: (step: SecondStep) => void;
  /**
   * The 'Forgot password?' control, shown on the password label's line; given the email
   * typed so far, so its dialog can start with it.
   */
  forgotPassword: (typedEmail: string) => ReactNode;
  /** Opens the first-time setup dialog ('Set Your Password') for the email typed so far. */
  onSetUpPassword: (typedEmail: string) => void;
  /** Told the email as it is typed (the single sign-on hint finds its provider). */
  onTypedEmailChange?: (typedEmail: string) => void;
};

/** SPEC section 2 "Sign-in screen": email, password, Remember me, Forgot password?, Sign In. */
export function SignInForm({
  onSignedIn,
  onSecondStep,
  forgotPassword,
  onSetUpPassword,
  onTypedEmailChange,
}: SignInFormProps) {
  const { login } = useSession();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  // Plain state, not a form library: this form is on the first page every visitor loads,
  // whose script budget a form library alone would exceed.
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  // Messages show once a sign-in was tried, then follow what is typed.
  const [tried, setTried] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errors = tried ? validate(email, password) : {};
  const typedEmail = email.trim();
  useEffect(() => onTypedEmailChange?.(typedEmail), [typedEmail, onTypedEmailChange]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setTried(true);
    const invalid = validate(email, password);
    if (invalid.email || invalid.password) {
      (invalid.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const result = await login(emailSchema.parse(email), password, rememberMe);
      if ("user" in result) onSignedIn?.(result.user);
      else onSecondStep(result.secondFactor);
    } catch {
      // The session layer has shown the failure toast.
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      className="grid gap-5"
      aria-label="Sign in"
    >
      <Field id="signin-email" label="Email address" error={errors.email}>
        <Input
          id="signin-email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          required
          {...fieldAria("signin-email", errors.email)}
          ref={emailRef}
          name="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field
        id="signin-password"
        label="Password"
        error={errors.password}
        labelAside={forgotPassword(typedEmail)}
      >
        <PasswordInput
          id="signin-password"
          autoComplete="current-password"
          placeholder="Enter your password"
          required
          {...fieldAria("signin-password", errors.password)}
          ref={passwordRef}
          name="password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <div className="flex items-center gap-2.5">
        <Checkbox
          id="signin-remember"
          name="rememberMe"
          checked={rememberMe}
          onCheckedChange={(checked) => setRememberMe(checked === true)}
        />
        <Label htmlFor="signin-remember" className="font-normal text-zinc-700">
          Remember me
        </Label>
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        {busy ? (
          <>
            <Spinner />
            Signing in...
          </>
        ) : (
          "Sign In"
        )}
      </Button>
      {failed ? (
        // Shown after any failed sign-in, so it never tells whether the account exists: a
        // learner registered by an administrator has no password until they set one.
        <p
          data-testid="sign-in-first-time-hint"
          className="-mt-1 rounded-lg bg-indigo-50 px-3 py-2.5 text-sm leading-relaxed text-indigo-950"
        >
          New here? If an administrator registered you, use{" "}
          <Button
            variant="link"
            className="h-auto p-0 align-baseline text-sm font-semibold"
            onClick={() => onSetUpPassword(typedEmail)}
          >
            Set Your Password
          </Button>{" "}
          first.
        </p>
      ) : null}
    </form>
  );
}
