import type { User } from "@contract";
import { useMutation } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export type LoginInput = { email: string; password: string; rememberMe?: boolean };

/** POST /api/auth/login: demo-mode sign-in with email and password. */
export async function login(input: LoginInput): Promise<User> {
  const { user } = await apiJson<{ user: User }>("POST", "/api/auth/login", input);
  return user;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
