import { profileBodySchema, TOASTS, type User } from "@contract";
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useUpdateProfile } from "../api/update-profile";

const profileFormSchema = z.object({
  name: profileBodySchema.shape.name,
  phone: z.string().trim().max(40, "Use at most 40 characters"),
});

type ProfileFormInput = z.input<typeof profileFormSchema>;
type ProfileFormOutput = z.output<typeof profileFormSchema>;

/** SPEC section 5 "Profile": name (required) and phone; the email cannot be changed. */
export function ProfileDetailsCard({ user }: { user: User }) {
  const updateProfile = useUpdateProfile();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<ProfileFormInput, unknown, ProfileFormOutput>({
    resolver: zodResolver(profileFormSchema),
    values: { name: user.name, phone: user.phone ?? "" },
  });

  const onSubmit = handleSubmit(async ({ name, phone }) => {
    try {
      const saved = await updateProfile.mutateAsync({
        name,
        phone: phone || null,
        userId: user.id,
      });
      reset({ name: saved.name, phone: saved.phone ?? "" });
      toast({ title: TOASTS.profileUpdated });
    } catch (error) {
      toast({
        variant: "destructive",
        title: TOASTS.profileUpdateFailed,
        description: getErrorMessage(error) ?? TOASTS.profileUpdateFailedFallback,
      });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Personal information</CardTitle>
        <CardDescription>How you appear to administrators and on certificates.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate aria-label="Personal information">
        <CardContent className="grid gap-5 sm:grid-cols-2">
          <Field id="profile-name" label="Full name" error={errors.name?.message}>
            <Input
              id="profile-name"
              autoComplete="name"
              required
              {...fieldAria("profile-name", errors.name)}
              {...register("name")}
            />
          </Field>
          <Field id="profile-phone" label="Phone" error={errors.phone?.message}>
            <Input
              id="profile-phone"
              type="tel"
              autoComplete="tel"
              placeholder="Optional"
              {...fieldAria("profile-phone", errors.phone)}
              {...register("phone")}
            />
          </Field>
          <Field
            id="profile-email"
            label="Email address"
            hint="Email cannot be changed"
            className="sm:col-span-2"
          >
            <Input
              id="profile-email"
              type="email"
              value={user.email}
              readOnly
              aria-describedby="profile-email-hint"
            />
          </Field>
        </CardContent>
        <CardFooter className="justify-end">
          <Button
            type="submit"
            className="w-full sm:w-auto"
            disabled={!isDirty || updateProfile.isPending}
          >
            {updateProfile.isPending ? <Spinner /> : null}
            Save changes
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
