import { readFileSync } from "node:fs";
import type { Locator } from "@playwright/test";
import {
  CERTIFICATE_CODE_INVALID,
  type Certificate,
  type CourseCreditBody,
  type CreditSettingsBody,
} from "../src/contract";
import { pdfText } from "../src/server/testing/pdf-text";
import { dismissToast, expect, expectToast, FIXTURE_FILES, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/** The organisation profile in Settings, and the issuer it makes of every certificate. */

const ORGANISATION = "Northwind Continuing Education Institute";
const OFFICIAL_TITLE = "Director of Continuing Education and Professional Development Programs";

/** Whether an element shows all of its text: nothing cut, nothing hidden by an ellipsis. */
const showsAllText = (element: Locator) =>
  element.evaluate((el) => {
    const style = getComputedStyle(el);
    return (
      el.scrollWidth <= el.clientWidth + 1 &&
      el.scrollHeight <= el.clientHeight + 1 &&
      style.textOverflow !== "ellipsis"
    );
  });

test.describe("Organisation profile", () => {
  test.afterAll(async ({ adminApi }) => {
    // The portal issues as its product name again for the specs after this one.
    await adminApi.put("/api/admin/organisation", {
      data: {
        name: "",
        logoPath: null,
        address: "",
        contactEmail: "",
        dateFormat: "month-day-year",
      },
    });
  });

  // The profile names the issuer of every certificate: changed only while no other test runs.
  test("the admin sets the organisation's name and logo, and the learner's certificate shows them", {
    tag: "@whole-portal",
  }, async ({ page, browser, admin, adminApi, createLearner, completeModules }) => {
    test.slow();
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto("/admin/settings");
    const card = page.getByRole("region", { name: "Organisation" });
    await card.getByLabel("Organisation name").fill(ORGANISATION);
    await card
      .locator("input.uppy-Dashboard-input[type=file]")
      .first()
      .setInputFiles(FIXTURE_FILES.thumbnail);
    await expect(card.getByTestId("logo-uploaded")).toBeVisible();
    await card.getByLabel("Address").fill("1 Main Street\nSpringfield, IL 62701");
    await card.getByLabel("Contact email").fill("cpe@northwind.example");
    await card.getByRole("radio", { name: "26 November 2026" }).check();
    await card.getByRole("button", { name: "Save organisation" }).click();
    await expectToast(page, "Organisation saved");
    await dismissToast(page);
    await screensAtBothWidths(page, "admin-settings-organisation");

    // A course with credit, signed by an official whose title is long.
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Ethics for CPAs ${stamp}`,
      category: "Development",
      duration: 1,
      modules: [{ title: "Independence", duration: 20 }],
    });
    const offer: CourseCreditBody = {
      bodies: [{ name: "NASBA", providerNumber: "112233" }],
      types: [
        {
          name: "CPE credits",
          amount: 1,
          accreditingBody: "NASBA",
          accreditationStatement: "Northwind is registered with NASBA as a CPE sponsor.",
          designationStatement: "",
          claimStep: null,
          licenceRequired: false,
        },
      ],
    };
    const _offered = await offerCredit(adminApi, course.id, offer);
    const settings: CreditSettingsBody = {
      sponsorName: ORGANISATION,
      sponsorAddress: "1 Main Street, Springfield, IL 62701",
      deliveryMethod: "QAS Self-Study",
      fieldsOfStudy: [{ field: "Regulatory Ethics", credits: 1 }],
      officialName: "Dana Lee",
      officialTitle: OFFICIAL_TITLE,
    };
    const saved = await adminApi.put(`/api/courses/${course.id}/credit-settings`, {
      data: settings,
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const learner = await createLearner({ name: "Ada Lovelace" });
    await enroll(adminApi, learner.id, course.id);
    await completeModules(learner, course as never, 1);

    // The learner's Certificates tab: the PDF and the spec's HTML file, side by side.
    const context = await browser.newContext();
    const learnerPage = await context.newPage();
    await signIn(learnerPage, learner);
    await expect(learnerPage).toHaveURL(/\/learner$/);
    await learnerPage.getByRole("tab", { name: /^Certificates/ }).click();
    const item = learnerPage.getByTestId("certificate-item");
    await expect(item).toHaveCount(1);
    const pdfLink = item.getByRole("link", {
      name: `Download PDF certificate for ${course.title}`,
    });
    const htmlButton = item.getByRole("button", {
      name: `Download HTML certificate for ${course.title}`,
    });
    await expect(pdfLink).toBeVisible();
    await expect(htmlButton).toBeVisible();
    await screensAtBothWidths(learnerPage, "organisation-learner-certificates");

    const htmlDownload = learnerPage.waitForEvent("download");
    await htmlButton.click();
    const download = await htmlDownload;
    expect(download.suggestedFilename()).toBe(
      `Certificate-${course.title.replace(/\s+/g, "-")}.html`,
    );
    const html = readFileSync((await download.path())!, "utf8");
    expect(html).toContain(`<p class="issuer">${ORGANISATION}</p>`);
    // The logo travels inside the file, so it prints offline.
    expect(html).toMatch(
      /<img class="logo" src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="Northwind/,
    );
    expect(html).toContain("Field of study:</span> Regulatory Ethics");
    expect(html).not.toContain("Course length");
    expect(html).toContain("Credit:</span> 1 CPE credit");
    expect(html).not.toContain("Development ·");

    const certificate = await context.newPage();
    await certificate.setContent(html);
    await expect(certificate.getByRole("img", { name: ORGANISATION })).toBeVisible();
    const signatory = certificate.locator(".sheet:not(.details) .signatory");
    await expect(signatory).toContainText(OFFICIAL_TITLE);
    for (const width of [1280, 390]) {
      await certificate.setViewportSize({ width, height: 900 });
      // The long title wraps within the sheet: all of it shows, nothing runs off the page.
      expect(await showsAllText(signatory)).toBe(true);
      const box = (await signatory.boundingBox())!;
      const sheet = (await certificate.locator(".sheet").first().boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(sheet.x);
      expect(box.x + box.width).toBeLessThanOrEqual(sheet.x + sheet.width);
      expect(box.y + box.height).toBeLessThanOrEqual(sheet.y + sheet.height);
    }
    await screensAtBothWidths(certificate, "organisation-certificate");

    // The PDF prints the same issuer, and the date as the settings chose.
    const mine = (await (
      await learnerPage.request.get("/api/certificates/mine")
    ).json()) as Certificate[];
    const issued = mine.find((c) => c.courseId === course.id)!;
    expect(issued.issuerName).toBe(ORGANISATION);
    const pdfDownload = learnerPage.waitForEvent("download");
    await pdfLink.click();
    const pdf = readFileSync((await (await pdfDownload).path())!);
    const printed = await pdfText(new Uint8Array(pdf));
    expect(printed).toContain(ORGANISATION);
    expect(printed).toContain(OFFICIAL_TITLE);
    const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(issued.completedAt),
    );
    expect(printed).toContain(day);
    expect(html).toContain(day);

    // Anyone holding the code sees who issued it, with the logo.
    await learnerPage.goto(`/verify/${issued.code}`);
    const result = learnerPage.getByTestId("verification-result");
    await expect(result).toContainText(`issued by ${ORGANISATION}`);
    await expect(result.getByText("Regulatory Ethics")).toBeVisible();
    // Every date on the page in the format chosen in Settings.
    await expect(result).toContainText(day);
    await expect(learnerPage.getByText(/\d{1,2}\/\d{1,2}\/\d{4}/)).toHaveCount(0);
    await screensAtBothWidths(learnerPage, "organisation-verification");

    // So does the learner's transcript.
    await learnerPage.goto("/learner/transcript");
    await expect(learnerPage.getByTestId("transcript-entry").first()).toContainText(day);
    await screensAtBothWidths(learnerPage, "organisation-transcript");

    // Text far too long to be a code is said to be no code, not a failure of the service.
    await learnerPage.goto(`/verify/${"X".repeat(5000)}`);
    await expect(
      learnerPage.getByRole("heading", { name: "Not a certificate code" }),
    ).toBeVisible();
    await expect(learnerPage.getByText(CERTIFICATE_CODE_INVALID)).toBeVisible();
    await expect(learnerPage.getByText(/did not answer/)).toHaveCount(0);
    await screensAtBothWidths(learnerPage, "verify-not-a-code");
    await context.close();
  });
});
