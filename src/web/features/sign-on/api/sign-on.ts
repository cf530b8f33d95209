import {
  emailSchema,
  signOnDiscoverResponseSchema,
  signOnLinksSchema,
  signOnProvidersSchema,
} from "@contract";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

/** GET /api/sign-on/providers: the sign-in page's "Continue with …" buttons. */
export function useSignOnProviders() {
  return useQuery({
    queryKey: ["/api/sign-on/providers"],
    queryFn: () => apiJson(signOnProvidersSchema, "GET", "/api/sign-on/providers"),
    staleTime: 5 * 60_000,
  });
}

/**
 * POST /api/sign-on/discover: the provider serving the typed email's domain, asked once per
 * domain and only for a whole email address.
 */
export function useDiscoveredProvider(email: string) {
  const valid = emailSchema.safeParse(email).success;
  const domain = valid ? email.slice(email.lastIndexOf("@") + 1).toLowerCase() : "";
  return useQuery({
    queryKey: ["/api/sign-on/discover", domain],
    queryFn: () =>
      apiJson(signOnDiscoverResponseSchema, "POST", "/api/sign-on/discover", { email }),
    enabled: valid,
    staleTime: 5 * 60_000,
  });
}

/** GET /api/sign-on/links: the providers the signed-in user's account is linked to. */
export function useSignOnLinks() {
  return useQuery({
    queryKey: ["/api/sign-on/links"],
    queryFn: () => apiJson(signOnLinksSchema, "GET", "/api/sign-on/links"),
  });
}

/** Where the browser goes to sign in (or link) through a provider: a full navigation. */
export const startUrl = (providerId: string, purpose?: "link") =>
  `/api/sign-on/${encodeURIComponent(providerId)}/start${purpose ? `?purpose=${purpose}` : ""}`;
