import { type User, userResponseSchema } from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";
import { meQueryKey } from "./get-me";

type UpdateProfileInput = {
  name: string;
  phone: string | null;
  userId: string;
  /** Sent only together with newPassword (SPEC section 5). */
  currentPassword?: string;
  newPassword?: string;
};

/** PUT /api/auth/profile: the server acts on the session's user and answers {user}. */
async function updateProfile(input: UpdateProfileInput): Promise<User> {
  const { currentPassword, newPassword, ...rest } = input;
  const body = newPassword
    ? { ...rest, ...(currentPassword ? { currentPassword } : {}), newPassword }
    : rest;
  const { user } = await apiJson(userResponseSchema, "PUT", "/api/auth/profile", body);
  return user;
}

/** Saves the profile and puts the answered user into the session cache. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => queryClient.setQueryData(meQueryKey, user),
  });
}
