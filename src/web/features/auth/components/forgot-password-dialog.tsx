import { emailSchema, TOASTS } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRoundIcon, MailCheckIcon } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { useRequestPasswordReset } from "../api/reset-password";

const forgotSchema = z.object({ email: emailSchema });

/**
 * What 'Forgot password?' opens (its behaviour is not shown in the spec): asks for the
 * email and has a single-use reset link mailed (POST /api/auth/reset-password). The answer
 * is the same whether or not the address has an account, so nobody can probe for them.
 */
export function ForgotPasswordDialog({
  open,
  onOpenChange,
  trigger,
  defaultEmail,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it; focus returns there on close. */
  trigger?: ReactNode;
  defaultEmail?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent className="max-w-md">
        {/* Mounted only while open, so every opening starts from a clean form. */}
        <ForgotPasswordContent defaultEmail={defaultEmail} />
      </DialogContent>
    </Dialog>
  );
}

function ForgotPasswordContent({ defaultEmail }: { defaultEmail?: string }) {
  const requestReset = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof forgotSchema>, unknown, z.output<typeof forgotSchema>>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { email: defaultEmail ?? "" },
  });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await requestReset.mutateAsync(email);
      setSentTo(email);
      toast({
        title: TOASTS.resetEmailSent,
        description: "Check your inbox for a link to choose a new password.",
      });
    } catch {
      toast({
        variant: "destructive",
        title: TOASTS.resetEmailFailed,
        description: TOASTS.resetEmailFailedDescription,
      });
    }
  });

  if (sentTo) {
    return (
      <>
        <div className="flex size-11 items-center justify-center rounded-full bg-emerald-50 text-emerald-700">
          <MailCheckIcon className="size-5" aria-hidden="true" />
        </div>
        <DialogHeader>
          <DialogTitle>Check your inbox</DialogTitle>
          <DialogDescription>
            If an account exists for <span className="font-medium text-zinc-900">{sentTo}</span>,
            we've sent it a link to reset your password.
          </DialogDescription>
        </DialogHeader>
        <ul className="grid gap-2 rounded-xl bg-zinc-50 p-4 text-sm text-zinc-700">
          <li>The link works once and expires in 1 hour.</li>
          <li>Nothing there after a few minutes? Check your spam folder.</li>
        </ul>
        <DialogFooter>
          <Button variant="ghost" onClick={() => setSentTo(null)}>
            Use another email
          </Button>
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogFooter>
      </>
    );
  }

  return (
    <>
      <div className="flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
        <KeyRoundIcon className="size-5" aria-hidden="true" />
      </div>
      <DialogHeader>
        <DialogTitle>Forgot your password?</DialogTitle>
        <DialogDescription>
          Enter the email you sign in with and we'll send you a link to choose a new password.
        </DialogDescription>
      </DialogHeader>
      <form
        onSubmit={(event) => {
          // The dialog sits inside the sign-in form in React's tree (its trigger is on the
          // password label's line); React passes a submit up through the portal, which
          // would validate the sign-in form behind the dialog.
          event.stopPropagation();
          void onSubmit(event);
        }}
        noValidate
        className="grid gap-5"
        aria-label="Reset password"
      >
        <Field id="forgot-email" label="Email address" error={errors.email?.message}>
          <Input
            id="forgot-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            required
            {...fieldAria("forgot-email", errors.email)}
            {...register("email")}
          />
        </Field>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="ghost">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={requestReset.isPending}>
            {requestReset.isPending ? (
              <>
                <Spinner />
                Sending...
              </>
            ) : (
              "Send reset link"
            )}
          </Button>
        </DialogFooter>
      </form>
    </>
  );
}
