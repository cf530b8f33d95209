import { SIGN_ON_REFUSALS } from "../src/contract";
import type { TestOidcIdp } from "../src/server/testing/oidc-idp";
import { startTestSamlIdp, type TestSamlIdp } from "../src/server/testing/saml-idp";
import { expect, signIn, test } from "./support/fixtures";
import { screensAtBothWidths } from "./support/screens";
import {
  addOidcProvider,
  addSamlProvider,
  registerLearner,
  removeProviders,
  signInAtIdp,
  startTestIdp,
  uniqueDomain,
} from "./support/sign-on";

const ACCESS_DENIED = "Access denied. Only admin-registered learner emails are allowed.";
const RESTRICTED = "Your account has been restricted. Please contact the administrator.";

let idp: TestOidcIdp;
let samlIdp: TestSamlIdp;
test.beforeAll(async () => {
  [idp, samlIdp] = await Promise.all([startTestIdp(), startTestSamlIdp()]);
});
test.afterAll(async () => {
  await Promise.all([idp?.close(), samlIdp?.close()]);
});

test.describe("Single sign-on through OpenID Connect", () => {
  test("a registered learner signs in through the provider; an unknown email is refused", async ({
    page,
    adminApi,
  }) => {
    const domain = uniqueDomain();
    const provider = await addOidcProvider(adminApi, idp, {
      name: `Acme ID ${domain.slice(4, 10)}`,
      domains: [domain],
    });
    try {
      const email = `ada@${domain}`;
      await registerLearner(adminApi, email, "Ada Lovelace");

      await page.goto("/");
      const button = page.getByRole("link", { name: `Continue with ${provider.name}` });
      await expect(button).toBeVisible();
      // The typed email's domain points at its provider.
      await page.getByLabel("Email address").fill(email);
      await expect(page.getByTestId("sign-on-hint")).toContainText(provider.name);
      await screensAtBothWidths(page, "sso-sign-in");

      await button.click();
      await signInAtIdp(page, email);
      await expect(page).toHaveURL(/\/learner$/);
      await expect(page.getByText("Ada Lovelace").first()).toBeVisible();
      await screensAtBothWidths(page, "sso-learner-landed");

      // Someone of the domain whom no administrator registered.
      await page.context().clearCookies();
      await page.goto("/");
      await page.getByRole("link", { name: `Continue with ${provider.name}` }).click();
      await signInAtIdp(page, `stranger@${domain}`);
      await expect(page).toHaveURL(/\/\?signOnError=not_registered$/);
      await expect(page.getByTestId("sign-on-error")).toHaveText(ACCESS_DENIED);
      await screensAtBothWidths(page, "sso-refused");

      // Someone who changes their mind at the provider's page and cancels.
      await page.context().clearCookies();
      await page.getByRole("link", { name: `Continue with ${provider.name}` }).click();
      await expect(page.getByRole("heading", { name: "Test identity provider" })).toBeVisible();
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect(page).toHaveURL(/\/\?signOnError=cancelled$/);
      await expect(page.getByTestId("sign-on-error")).toHaveText(SIGN_ON_REFUSALS.cancelled);
    } finally {
      await removeProviders(adminApi, [provider.id]);
    }
  });

  test("a provider that may create learners creates one the administrator sees; a restricted learner is refused", async ({
    page,
    browser,
    admin,
    adminApi,
  }) => {
    test.slow(); // four admin screens at two widths, checked with axe; two learners sign on
    const domain = uniqueDomain();
    const name = `Beta SSO ${domain.slice(4, 10)}`;
    const created: string[] = [];
    try {
      // The administrator adds the provider in Settings.
      await signIn(page, admin);
      await expect(page).toHaveURL(/\/admin$/);
      await page.goto("/admin/settings");
      const card = page.getByRole("region", { name: "Single sign-on" });
      await card.getByRole("button", { name: "Add identity provider" }).click();
      const dialog = page.getByRole("dialog", { name: "Add an identity provider" });
      await dialog.getByLabel("Name", { exact: true }).fill(name);
      await dialog.getByLabel("Email domains").fill(domain);
      await dialog.getByLabel("Issuer URL").fill(idp.issuer);
      await dialog.getByLabel("Client ID").fill(idp.clientId);
      await dialog.getByLabel("Client secret", { exact: true }).fill(idp.clientSecret);
      await dialog.getByLabel("May create learners").check();
      await screensAtBothWidths(page, "sso-add-provider");
      await dialog.getByRole("button", { name: "Add provider" }).click();
      await expect(dialog).toBeHidden();
      const row = card.getByRole("listitem", { name });
      await expect(row).toContainText("Creates learners");
      const providers = (await (await adminApi.get("/api/identity-providers")).json()) as {
        providers: { id: string; name: string }[];
      };
      created.push(...providers.providers.filter((p) => p.name === name).map((p) => p.id));
      await row.getByRole("button", { name: `Edit ${name}` }).click();
      await expect(page.getByTestId("secret-set")).toHaveText("A client secret is set.");
      await page.keyboard.press("Escape");
      await screensAtBothWidths(page, "sso-settings");

      // Someone nobody registered signs in in another browser and becomes a learner.
      const visitor = await browser.newContext();
      const other = await visitor.newPage();
      idp.accounts.set(`grace@${domain}`, { name: "Grace Hopper" });
      await other.goto("/");
      await other.getByRole("link", { name: `Continue with ${name}` }).click();
      await signInAtIdp(other, `grace@${domain}`);
      await expect(other).toHaveURL(/\/learner$/);

      // A restricted learner is refused with the spec's message.
      const heldEmail = `held@${domain}`;
      const heldId = await registerLearner(adminApi, heldEmail, "Held Back");
      await adminApi.patch(`/api/users/learners/${heldId}/restrict`);
      await visitor.clearCookies();
      await other.goto("/");
      await other.getByRole("link", { name: `Continue with ${name}` }).click();
      await signInAtIdp(other, heldEmail);
      await expect(other).toHaveURL(/signOnError=restricted$/);
      await expect(other.getByTestId("sign-on-error")).toHaveText(RESTRICTED);
      await visitor.close();

      await page.goto("/admin/learners");
      await page
        .getByRole("searchbox", { name: "Search learners by name or email" })
        .fill(`grace@${domain}`);
      await expect(page.getByText(`Created by sign-on (${name})`)).toBeVisible();
      await screensAtBothWidths(page, "sso-created-learner");
      await page.getByRole("link", { name: "Transcript of Grace Hopper" }).click();
      await expect(page.getByTestId("sign-on-facts")).toContainText(`Created by sign-on (${name})`);
      await screensAtBothWidths(page, "sso-learner-record");

      // An administrator links their own account from the profile.
      await page.goto("/profile");
      const linking = page.getByRole("region", { name: "Single sign-on" });
      await expect(linking.getByRole("link", { name: `Link ${name}` })).toBeVisible();
      await screensAtBothWidths(page, "sso-profile");
    } finally {
      await removeProviders(adminApi, created);
    }
  });
});

test.describe("The identity provider form", () => {
  test("puts each refusal of the settings on its field and moves there", async ({ adminPage }) => {
    const page = adminPage;
    await page.goto("/admin/settings");
    const card = page.getByRole("region", { name: "Single sign-on" });
    await card.getByRole("button", { name: "Add identity provider" }).click();
    const dialog = page.getByRole("dialog", { name: "Add an identity provider" });
    const issuer = dialog.getByLabel("Issuer URL");
    const domains = dialog.getByLabel("Email domains");
    await dialog.getByLabel("Name", { exact: true }).fill("Field errors");
    await domains.fill("example");
    await issuer.fill("login.example.com/tenant/v2.0");
    await dialog.getByLabel("Client ID").fill("client");
    await dialog.getByLabel("Client secret", { exact: true }).fill("secret");
    const add = dialog.getByRole("button", { name: "Add provider" });

    // The schema's refusal names the field by its path.
    await add.click();
    await expect(domains).toBeFocused();
    await expect(domains).toHaveAttribute("aria-invalid", "true");
    await expect(domains).toHaveAccessibleDescription("Enter a domain such as example.com");
    await screensAtBothWidths(page, "sso-provider-field-error");

    await domains.fill(uniqueDomain());
    await add.click();
    await expect(issuer).toBeFocused();
    await expect(issuer).toHaveAccessibleDescription("Enter a valid web address");
    await expect(domains).not.toHaveAttribute("aria-invalid", "true");

    // The server's own refusal, found by its code: the issuer cannot be read.
    await issuer.fill("http://127.0.0.1:9/");
    await add.click();
    await expect(issuer).toBeFocused();
    await expect(issuer).toHaveAccessibleDescription(/discovery could not be read/);
  });
});

test.describe("Single sign-on through SAML 2.0", () => {
  test("a registered learner signs in through the SAML provider and lands on their page", async ({
    page,
    adminPage,
    adminApi,
  }) => {
    test.slow(); // an admin and a learner screen at two widths, checked with axe
    const domain = uniqueDomain();
    const provider = await addSamlProvider(adminApi, samlIdp, {
      name: `Acme SAML ${domain.slice(4, 10)}`,
      domains: [domain],
    });
    try {
      // The administrator finds in Settings what the provider's own set-up asks for.
      await adminPage.goto("/admin/settings");
      const row = adminPage
        .getByRole("region", { name: "Single sign-on" })
        .getByRole("listitem", { name: provider.name });
      await expect(row).toContainText("ACS URL");
      await expect(row).toContainText("Entity ID");
      const metadata = row.getByRole("link", { name: "Download service-provider metadata" });
      const answer = await adminPage.request.get((await metadata.getAttribute("href"))!);
      expect(answer.ok()).toBe(true);
      expect(await answer.text()).toContain("AssertionConsumerService");
      await screensAtBothWidths(adminPage, "sso-saml-settings");

      const email = `katherine@${domain}`;
      await registerLearner(adminApi, email, "Katherine Johnson");
      // The test provider answers at once for this person: no sign-in form of its own.
      samlIdp.signInAs({ email });

      const posts: string[] = [];
      page.on("request", (request) => {
        if (request.method() === "POST" && request.url().endsWith("/saml/acs")) {
          posts.push(new URL(request.frame().url()).origin);
        }
      });
      await page.goto("/");
      await page.getByRole("link", { name: `Continue with ${provider.name}` }).click();
      await expect(page).toHaveURL(/\/learner$/);
      // The provider's page posts to Credo from its site; Credo's own page posts it again (its
      // script allowed by the Content-Security-Policy), so the sign-on cookie comes along.
      expect(posts).toEqual([samlIdp.url, new URL(page.url()).origin]);
      await expect(page.getByText("Katherine Johnson").first()).toBeVisible();
      await screensAtBothWidths(page, "sso-saml-learner-landed");
    } finally {
      await removeProviders(adminApi, [provider.id]);
    }
  });
});
