import { MIN_PASSWORD_LENGTH, TOASTS, type User } from "@contract";
import { MailIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Field } from "../../../components/ui/field";
import { PasswordInput } from "../../../components/ui/password-input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useRequestPasswordReset } from "../api/reset-password";
import { useUpdateProfile } from "../api/update-profile";

/**
 * SPEC sections 2 and 5 "Profile": change the password with the current one, or have a
 * reset link emailed. The current password is sent only together with a new one.
 */
export function ChangePasswordCard({ user }: { user: User }) {
  const updateProfile = useUpdateProfile();
  const resetPassword = useRequestPasswordReset();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!newPassword) return;
    if (newPassword !== confirmPassword) {
      toast({
        variant: "destructive",
        title: TOASTS.passwordMismatch,
        description: TOASTS.profilePasswordMismatchDescription,
      });
      return;
    }
    try {
      await updateProfile.mutateAsync({
        name: user.name,
        phone: user.phone,
        userId: user.id,
        currentPassword,
        newPassword,
      });
      setCurrentPassword("");
      setNewPassword("");
      setConfirmPassword("");
      toast({ title: TOASTS.profileUpdated });
    } catch (error) {
      toast({
        variant: "destructive",
        title: TOASTS.profileUpdateFailed,
        description: getErrorMessage(error) ?? TOASTS.profileUpdateFailedFallback,
      });
    }
  }

  async function onResetViaEmail() {
    try {
      await resetPassword.mutateAsync(user.email);
      toast({
        title: TOASTS.resetEmailSent,
        description: `We sent a link to ${user.email}. It works once and expires in 1 hour.`,
      });
    } catch {
      toast({
        variant: "destructive",
        title: TOASTS.resetEmailFailed,
        description: TOASTS.resetEmailFailedDescription,
      });
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Password</CardTitle>
        <CardDescription>
          Choose a new password, or have a reset link sent to your email.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate aria-label="Change password">
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <Field id="current-password" label="Current password" className="sm:col-span-2">
            <PasswordInput
              id="current-password"
              toggleLabel="current password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={(event) => setCurrentPassword(event.target.value)}
            />
          </Field>
          <Field
            id="new-password"
            label="New password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          >
            <PasswordInput
              id="new-password"
              toggleLabel="new password"
              autoComplete="new-password"
              aria-describedby="new-password-hint"
              value={newPassword}
              onChange={(event) => setNewPassword(event.target.value)}
            />
          </Field>
          <Field id="confirm-new-password" label="Confirm new password">
            <PasswordInput
              id="confirm-new-password"
              toggleLabel="confirm new password"
              autoComplete="new-password"
              value={confirmPassword}
              onChange={(event) => setConfirmPassword(event.target.value)}
            />
          </Field>
        </CardContent>
        <CardFooter className="flex-col-reverse items-stretch sm:flex-row sm:items-center sm:justify-between">
          <Button
            variant="outline"
            onClick={() => void onResetViaEmail()}
            disabled={resetPassword.isPending}
          >
            {resetPassword.isPending ? <Spinner /> : <MailIcon aria-hidden="true" />}
            Reset via Email
          </Button>
          <Button type="submit" disabled={!newPassword || updateProfile.isPending}>
            {updateProfile.isPending ? <Spinner /> : null}
            Update Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
