import { MIN_PASSWORD_LENGTH, passwordSchema, resetConfirmBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { LinkIcon, TriangleAlertIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import { Field, fieldAria } from "../../../components/ui/field";
import { PasswordInput } from "../../../components/ui/password-input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useConfirmPasswordReset } from "../api/confirm-password-reset";
import type { LoginResult } from "../api/login";
import { ForgotPasswordDialog } from "./forgot-password-dialog";

const resetFormSchema = z
  .object({
    password: passwordSchema,
    confirmPassword: z.string().min(1, "Confirm your new password."),
  })
  .refine((values) => values.password === values.confirmPassword, {
    message: "Passwords do not match.",
    path: ["confirmPassword"],
  });

type ResetFormInput = z.input<typeof resetFormSchema>;
type ResetFormOutput = z.output<typeof resetFormSchema>;

/** Said when a link cannot be valid at all; the server says the same for expired ones. */
const INVALID_LINK = "This reset link is invalid or has expired. Please request a new one.";

/**
 * The page an emailed reset link opens (/reset-password?token=…): a new password twice,
 * then POST /api/auth/reset-password/confirm, which signs the person in (an administrator
 * with a second factor after its step).
 */
export function ResetPasswordForm({
  token,
  onReset,
}: {
  token: string | null;
  onReset: (result: LoginResult) => void;
}) {
  const confirmReset = useConfirmPasswordReset();
  const [linkError, setLinkError] = useState<string | null>(() => {
    if (!token) return null;
    return resetConfirmBodySchema.shape.token.safeParse(token).success ? null : INVALID_LINK;
  });
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetFormInput, unknown, ResetFormOutput>({
    resolver: zodResolver(resetFormSchema),
    defaultValues: { password: "", confirmPassword: "" },
  });

  if (!token) {
    return (
      <LinkProblem title="Reset link missing">
        This page needs the link from your password reset email. Open the email and follow its link,
        or request a new one below.
      </LinkProblem>
    );
  }
  if (linkError) {
    return <LinkProblem title="This link can't be used">{linkError}</LinkProblem>;
  }

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      onReset(await confirmReset.mutateAsync({ token, password }));
    } catch (error) {
      const message = getErrorMessage(error);
      if (isApiError(error, "auth.reset_link_invalid")) {
        setLinkError(message ?? INVALID_LINK);
        return;
      }
      toast({
        variant: "destructive",
        title: "Password reset failed",
        description: message ?? "Please try again.",
      });
    }
  });

  const busy = isSubmitting || confirmReset.isPending;

  return (
    <div className="grid gap-8">
      <div className="grid gap-2">
        <h1
          id="reset-password-title"
          className="text-[28px] leading-tight font-semibold tracking-tight text-zinc-950"
        >
          Choose a new password
        </h1>
        <p className="text-[15px] text-zinc-600">
          Pick a password you don't use anywhere else. You'll be signed in right after.
        </p>
      </div>
      <form
        onSubmit={onSubmit}
        noValidate
        className="grid gap-5"
        aria-labelledby="reset-password-title"
      >
        <Field
          id="reset-password"
          label="New password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          error={errors.password?.message}
        >
          <PasswordInput
            id="reset-password"
            toggleLabel="new password"
            autoComplete="new-password"
            placeholder="Create a new password"
            autoFocus
            required
            {...fieldAria("reset-password", errors.password, { hint: true })}
            {...register("password")}
          />
        </Field>
        <Field
          id="reset-confirm"
          label="Confirm new password"
          error={errors.confirmPassword?.message}
        >
          <PasswordInput
            id="reset-confirm"
            toggleLabel="confirm new password"
            autoComplete="new-password"
            placeholder="Repeat the new password"
            required
            {...fieldAria("reset-confirm", errors.confirmPassword)}
            {...register("confirmPassword")}
          />
        </Field>
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={busy}>
          {busy ? (
            <>
              <Spinner />
              Saving...
            </>
          ) : (
            "Set new password"
          )}
        </Button>
      </form>
    </div>
  );
}

function LinkProblem({ title, children }: { title: string; children: ReactNode }) {
  const [forgotOpen, setForgotOpen] = useState(false);
  return (
    <div className="grid gap-6">
      <span className="flex size-12 items-center justify-center rounded-full bg-amber-50 text-amber-700 ring-8 ring-amber-50/50">
        {title === "Reset link missing" ? (
          <LinkIcon className="size-5" aria-hidden="true" />
        ) : (
          <TriangleAlertIcon className="size-5" aria-hidden="true" />
        )}
      </span>
      <div className="grid gap-2">
        <h1 className="text-[28px] leading-tight font-semibold tracking-tight text-zinc-950">
          {title}
        </h1>
        <p role="alert" className="text-[15px] leading-relaxed text-zinc-600">
          {children}
        </p>
      </div>
      <ForgotPasswordDialog
        open={forgotOpen}
        onOpenChange={setForgotOpen}
        trigger={
          <Button size="lg" className="w-full">
            Request a new link
          </Button>
        }
      />
    </div>
  );
}
