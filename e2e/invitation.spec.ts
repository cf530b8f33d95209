import type { Page } from "@playwright/test";
import { expect, expectToast, test } from "./support/fixtures";
import { holdRequests } from "./support/held-requests";
import { mailsTo, waitForMailLink } from "./support/learning";
import { screen } from "./support/screens";

const SETUP_LINK = /\/\?setup=1&email=[^&\s]+&token=[A-Za-z0-9_-]{20,}$/;

/**
 * Makes the page believe the portal runs with PASSWORD_SETUP_MODE=invite. The settings reach
 * the page only once `release` is called, as on a slow connection.
 */
function useInviteMode(page: Page) {
  return holdRequests(page, "**/api/config", async (route) => {
    const response = await route.fetch();
    const config = await response.json();
    await route.fulfill({ response, json: { ...config, passwordSetupMode: "invite" } });
  });
}

test.describe("Invitations", () => {
  test("a learner added by an administrator sets a password from the invitation link", async ({
    page,
    createLearner,
  }) => {
    const learner = await createLearner({ withPassword: false, name: "Ines Invited" });
    const { mail, link } = await waitForMailLink(learner.email, SETUP_LINK);
    expect(mail.subject.length).toBeGreaterThan(0);
    const url = new URL(link);
    expect(url.searchParams.get("email")).toBe(learner.email);

    await page.goto(link);
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(dialog).toBeVisible();
    const email = dialog.getByLabel("Email address");
    await expect(email).toHaveValue(learner.email);
    await expect(email).toHaveAttribute("readonly", "");
    // Holding the link proves the mailbox: verified at once, with the name the administrator
    // entered, and the password field ready for typing.
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
    await expect(dialog.getByLabel("Full name")).toHaveValue("Ines Invited");
    await expect(dialog.getByLabel("Password", { exact: true })).toBeFocused();
    await dialog.getByLabel("Password", { exact: true }).fill("invited-pass-1");
    await dialog.getByLabel("Confirm password", { exact: true }).fill("invited-pass-1");
    await screen(page, "invitation-setup-dialog");

    const request = page.waitForRequest("**/api/auth/setup-password");
    await dialog.getByRole("button", { name: "Set Password & Continue" }).click();
    expect((await request).postDataJSON()).toMatchObject({
      email: learner.email,
      name: "Ines Invited",
      inviteToken: url.searchParams.get("token"),
    });
    await expect(page).toHaveURL(/\/learner$/);
    await expectToast(page, "Password set successfully!");
    await expect(page.getByRole("heading", { level: 1, name: "My learning" })).toBeVisible();
  });

  test("in invite mode, the dialog opened without a link mails a fresh invitation", async ({
    page,
    createLearner,
  }) => {
    const settings = await useInviteMode(page);
    const learner = await createLearner({ withPassword: false });
    // The invitation sent when the administrator added the learner.
    await waitForMailLink(learner.email, SETUP_LINK);
    const seen = mailsTo(learner.email).length;

    // Verify is clicked before the portal's settings have arrived: the dialog still goes by
    // the portal's mode, not the page's default, and mails an invitation.
    await page.goto("/");
    await page.getByRole("button", { name: "Set Your Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Set Up Your Password" });
    await dialog.getByLabel("Email address").fill(learner.email);
    const resend = page.waitForRequest("**/api/auth/resend-invitation");
    await dialog.getByRole("button", { name: "Verify" }).click();
    settings.release();
    expect((await resend).postDataJSON()).toEqual({ email: learner.email });
    await expect(dialog.getByText("✓ Email verified")).toBeVisible();
    await expect(dialog.getByRole("status")).toContainText(
      `We've emailed a fresh invitation link to ${learner.email}`,
    );
    await expectToast(page, "Invitation sent", "Check your inbox for a link to set your password.");
    // No password fields without the invitation's token.
    await expect(dialog.getByLabel("Full name")).toHaveCount(0);
    await expect(dialog.getByRole("button", { name: "Set Password & Continue" })).toHaveCount(0);
    await screen(page, "invite-mode-invitation-sent");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    // Opened again, with the settings in: the dialog says how this portal sets passwords.
    await page.getByRole("button", { name: "Set Your Password" }).click();
    await expect(dialog.getByText("This portal sets passwords by invitation.")).toBeVisible();

    // The fresh link works: the dialog opens with the token and the password fields.
    const { link } = await waitForMailLink(learner.email, SETUP_LINK, { seen });
    await page.goto(link);
    const invited = page.getByRole("dialog", { name: "Set Up Your Password" });
    await expect(invited.getByText("This portal sets passwords by invitation.")).toHaveCount(0);
    await expect(invited.getByText("✓ Email verified")).toBeVisible();
    await expect(invited.getByLabel("Full name")).toHaveValue("Lee Learner");
    await invited.getByLabel("Full name").fill("Ivo Invited");
    await invited.getByLabel("Password", { exact: true }).fill("invited-pass-2");
    await invited.getByLabel("Confirm password", { exact: true }).fill("invited-pass-2");
    await invited.getByRole("button", { name: "Set Password & Continue" }).click();
    await expect(page).toHaveURL(/\/learner$/);
  });
});
