import { readFileSync } from "node:fs";
import { leafParts, parseMime } from "../src/server/testing/mail";
import { pdfText } from "../src/server/testing/pdf-text";
import { expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, mailsTo } from "./support/learning";
import { screen, screensAtBothWidths } from "./support/screens";

/** The certificate email, the administrator's reminder settings and the unsubscribe page. */

test.describe("Certificate email and reminders", () => {
  test("a learner who completes a course is emailed the certificate PDF and its verification link", async ({
    page,
    browser,
    adminApi,
    createLearner,
  }) => {
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Emailed Ethics ${stamp}`,
      modules: [{ title: "The only module", duration: 5 }],
    });
    const learner = await createLearner({ name: "Mara Mailed" });
    await enroll(adminApi, learner.id, course.id);

    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto(`/course/${course.id}`);
    await page.getByRole("button", { name: "Mark as Complete" }).click();
    await expect(page.getByTestId("course-complete")).toBeVisible();

    // The server sends it right after the completion commits: wait for it to land.
    const subject = `Your certificate for ${course.title}`;
    await expect
      .poll(() => mailsTo(learner.email).filter((m) => m.subject === subject).length, {
        message: "the certificate email arrives in the outbox",
      })
      .toBe(1);
    const mail = mailsTo(learner.email).find((m) => m.subject === subject)!;
    const verifyLink = mail.text.match(/https?:\/\/\S+\/verify\/[0-9A-Z]{32}/)?.[0];
    expect(verifyLink, "the verification link in the text part").toBeTruthy();
    expect(mail.html).toContain(`href="${verifyLink}"`);

    const parts = leafParts(parseMime(readFileSync(mail.file, "utf8")));
    const pdf = parts.find((p) => p.contentType.startsWith("application/pdf"));
    expect(pdf, "a PDF attachment").toBeTruthy();
    expect(pdf!.headers["content-disposition"]).toContain(
      `Certificate-${course.title.replace(/\s+/g, "-")}.pdf`,
    );
    expect(pdf!.body.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const printed = await pdfText(new Uint8Array(pdf!.body));
    expect(printed).toContain("Mara Mailed");
    expect(printed).toContain(course.title);

    // The link opens the public verification page, signed out.
    const visitor = await browser.newContext();
    const verifyPage = await visitor.newPage();
    await verifyPage.goto(verifyLink!);
    const result = verifyPage.getByTestId("verification-result");
    await expect(result).toHaveAttribute("data-status", "valid");
    await expect(result).toContainText("Mara Mailed");
    await screen(verifyPage, "certificate-email-verification");
    await visitor.close();
  });

  test("an administrator sets the reminder days, and a reminder's unsubscribe page asks first", async ({
    page,
    browser,
    admin,
  }) => {
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page
      .getByRole("navigation", { name: "Admin" })
      .getByRole("link", { name: "Settings" })
      .click();
    await expect(page).toHaveURL(/\/admin\/settings$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Settings");

    const card = page.getByRole("region", { name: "Learner reminders" });
    const inactivity = card.getByRole("switch", { name: "Remind inactive learners" });
    const days = card.getByLabel("Remind inactive learners after N days");
    await expect(inactivity).toHaveAttribute("aria-checked", /true|false/);
    if ((await inactivity.getAttribute("aria-checked")) === "false") {
      await expect(days).toBeDisabled();
      await inactivity.focus();
      await page.keyboard.press("Space");
    }
    await expect(inactivity).toHaveAttribute("aria-checked", "true");
    await days.fill("0");
    await card.getByRole("button", { name: "Save reminders" }).click();
    await expect(card.getByRole("alert")).toHaveText("Enter a whole number of days from 1 to 365.");
    await days.fill("10");
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/api/admin/reminder-settings") && r.request().method() === "PUT",
    );
    await card.getByRole("button", { name: "Save reminders" }).click();
    expect((await saved).request().postDataJSON()).toEqual({
      inactivityDays: 10,
      expiryReminders: true,
    });
    await expectToast(page, "Reminder settings saved");
    await page.reload();
    await expect(card.getByLabel("Remind inactive learners after N days")).toHaveValue("10");
    await screensAtBothWidths(page, "admin-reminder-settings");

    // The unsubscribe page, signed out: opening it changes nothing until the button is pressed.
    const visitor = await browser.newContext();
    const unsubscribe = await visitor.newPage();
    await unsubscribe.goto(`${new URL(page.url()).origin}/unsubscribe?token=not-a-real-token`);
    await expect(
      unsubscribe.getByRole("heading", { level: 1, name: "Stop reminder emails?" }),
    ).toBeVisible();
    await screensAtBothWidths(unsubscribe, "unsubscribe-confirm");
    await unsubscribe.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(
      unsubscribe.getByRole("heading", { level: 1, name: "This link does not work" }),
    ).toBeVisible();
    await expect(unsubscribe.getByText("This unsubscribe link is not valid.")).toBeVisible();
    await screen(unsubscribe, "unsubscribe-invalid-link");
    await visitor.close();
  });
});
