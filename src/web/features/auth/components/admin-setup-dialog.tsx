import { setupAdminBodySchema } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { ShieldCheckIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { PasswordInput } from "../../../components/ui/password-input";
import { Spinner } from "../../../components/ui/spinner";
import { useSession } from "../session-context";

const adminSetupFormSchema = setupAdminBodySchema
  .extend({ confirmPassword: z.string().min(1, "Confirm the password") })
  .refine((values) => values.password === values.confirmPassword, {
    message: "Passwords do not match.",
    path: ["confirmPassword"],
  });

type AdminSetupFormInput = z.input<typeof adminSetupFormSchema>;
type AdminSetupFormOutput = z.output<typeof adminSetupFormSchema>;

/** Creates an administrator account with the deployment's admin key (SPEC section 6). */
export function AdminSetupDialog({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The button that opens it; focus returns there on close. */
  trigger?: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent>
        <DialogHeader>
          <div className="mb-1 flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
            <ShieldCheckIcon className="size-5" aria-hidden="true" />
          </div>
          <DialogTitle>Administrator setup</DialogTitle>
          <DialogDescription>
            Create an administrator account. You need the admin key of this installation.
          </DialogDescription>
        </DialogHeader>
        <AdminSetupForm onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function AdminSetupForm({ onDone }: { onDone: () => void }) {
  const { setupAdmin } = useSession();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AdminSetupFormInput, unknown, AdminSetupFormOutput>({
    resolver: zodResolver(adminSetupFormSchema),
    defaultValues: { email: "", name: "", password: "", confirmPassword: "", adminKey: "" },
  });

  const onSubmit = handleSubmit(async ({ email, name, password, adminKey }) => {
    try {
      await setupAdmin({ email, name, password, adminKey });
      onDone();
    } catch {
      // The session layer has shown 'Admin setup failed' with the server's reason.
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <Field id="admin-email" label="Email address" error={errors.email?.message}>
        <Input
          id="admin-email"
          type="email"
          autoComplete="email"
          placeholder="admin@example.com"
          required
          {...fieldAria("admin-email", errors.email)}
          {...register("email")}
        />
      </Field>
      <Field id="admin-name" label="Full name" error={errors.name?.message}>
        <Input
          id="admin-name"
          autoComplete="name"
          placeholder="Your full name"
          required
          {...fieldAria("admin-name", errors.name)}
          {...register("name")}
        />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="admin-password" label="Password" error={errors.password?.message}>
          <PasswordInput
            id="admin-password"
            autoComplete="new-password"
            required
            {...fieldAria("admin-password", errors.password)}
            {...register("password")}
          />
        </Field>
        <Field id="admin-confirm" label="Confirm password" error={errors.confirmPassword?.message}>
          <PasswordInput
            id="admin-confirm"
            toggleLabel="confirm password"
            autoComplete="new-password"
            required
            {...fieldAria("admin-confirm", errors.confirmPassword)}
            {...register("confirmPassword")}
          />
        </Field>
      </div>
      <Field id="admin-key" label="Admin key" error={errors.adminKey?.message}>
        <PasswordInput
          id="admin-key"
          toggleLabel="admin key"
          autoComplete="off"
          required
          {...fieldAria("admin-key", errors.adminKey)}
          {...register("adminKey")}
        />
      </Field>
      <Button type="submit" size="lg" className="mt-1 w-full" disabled={isSubmitting}>
        {isSubmitting ? (
          <>
            <Spinner />
            Creating account...
          </>
        ) : (
          "Create admin account"
        )}
      </Button>
    </form>
  );
}
