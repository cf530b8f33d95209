import type { SecondStep, User } from "@contract";
import { emailSchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
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
  rememberMe: z.boolean(),
});

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
  const {
    register,
    control,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<z.input<typeof signInSchema>, unknown, z.output<typeof signInSchema>>({
    resolver: zodResolver(signInSchema),
    defaultValues: { email: "", password: "", rememberMe: false },
  });
  const typedEmail = watch("email").trim();
  useEffect(() => onTypedEmailChange?.(typedEmail), [typedEmail, onTypedEmailChange]);

  const onSubmit = handleSubmit(async ({ email, password, rememberMe }) => {
    setBusy(true);
    try {
      const result = await login(email, password, rememberMe);
      if ("user" in result) onSignedIn?.(result.user);
      else onSecondStep(result.secondFactor);
    } catch {
      // The session layer has shown the failure toast.
      setFailed(true);
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Sign in">
      <Field id="signin-email" label="Email address" error={errors.email?.message}>
        <Input
          id="signin-email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          required
          {...fieldAria("signin-email", errors.email)}
          {...register("email")}
        />
      </Field>
      <Field
        id="signin-password"
        label="Password"
        error={errors.password?.message}
        labelAside={forgotPassword(typedEmail)}
      >
        <PasswordInput
          id="signin-password"
          autoComplete="current-password"
          placeholder="Enter your password"
          required
          {...fieldAria("signin-password", errors.password)}
          {...register("password")}
        />
      </Field>
      <div className="flex items-center gap-2.5">
        <Controller
          control={control}
          name="rememberMe"
          render={({ field }) => (
            <Checkbox
              id="signin-remember"
              checked={field.value}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              name={field.name}
              ref={field.ref}
            />
          )}
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
