import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { startOidcIdp, type TestOidcIdp } from "../../src/server/testing/oidc-idp";
import { SERVER_URL } from "./server-url";

/**
 * Single sign-on in the browser tests: a real OpenID Connect provider (oidc-provider) on
 * loopback, started by the spec, and providers added to the portal for one test each. Each
 * test serves a domain of its own (domains are served by one provider) and removes its
 * provider at the end, so other tests' sign-in pages stay as they were.
 */
export const startTestIdp = (): Promise<TestOidcIdp> => startOidcIdp(SERVER_URL);

let domains = 0;
/** An email domain no other test uses. */
export function uniqueDomain(): string {
  domains += 1;
  return `sso-${Date.now().toString(36)}${domains}${Math.random().toString(36).slice(2, 6)}.example.net`;
}

/** Adds an OpenID Connect provider through the API as an administrator. */
export async function addOidcProvider(
  adminApi: APIRequestContext,
  idp: TestOidcIdp,
  settings: { name: string; domains: string[]; createsLearners?: boolean },
): Promise<{ id: string; name: string }> {
  const res = await adminApi.post("/api/identity-providers", {
    data: {
      protocol: "oidc",
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      ...settings,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).provider;
}

export async function removeProviders(adminApi: APIRequestContext, ids: string[]) {
  for (const id of ids) await adminApi.delete(`/api/identity-providers/${id}`);
}

/** Registers a learner (no password) as an administrator. */
export async function registerLearner(adminApi: APIRequestContext, email: string, name: string) {
  const res = await adminApi.post("/api/auth/register", { data: { email, name, phone: null } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** On the test provider's own page (after "Continue with …"): signs in as `email`. */
export async function signInAtIdp(page: Page, email: string) {
  await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Sign in" }).click();
}
