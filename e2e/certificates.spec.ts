import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import jsQR from "jsqr";
import { PDFDocument } from "pdf-lib";
import { formatCertificateCode } from "../src/contract";
import { pdfText } from "../src/server/testing/pdf-text";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit, singleCreditOffer } from "./support/learning";
import { screen, screensAtBothWidths } from "./support/screens";

/** Issued certificates, their public verification, transcripts and the audit. */

type Issued = { id: string; code: string; verifyUrl: string; enrollmentId: string };

/** Reads the QR code on the page: screenshot it large, then decode its pixels with jsQR. */
async function decodeQr(page: Page): Promise<string | undefined> {
  const qr = page.locator("svg.qr");
  await expect(qr).toBeVisible();
  await qr.evaluate((el) => {
    (el as SVGElement).style.width = "320px";
    (el as SVGElement).style.height = "320px";
  });
  const png = (await qr.screenshot()).toString("base64");
  const { width, height, data } = await page.evaluate(async (b64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${b64}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext("2d")!;
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: canvas.width, height: canvas.height, data: Array.from(pixels.data) };
  }, png);
  return jsQR(Uint8ClampedArray.from(data), width, height)?.data;
}

test.describe("Certificates", () => {
  test("a learner's certificate downloads as HTML and PDF, verifies publicly, and shows revoked to all after revocation", async ({
    page,
    browser,
    admin,
    adminPage,
    adminApi,
    createLearner,
    completeModules,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Clinical Ethics ${stamp}`,
      category: "Design",
      duration: 4,
      modules: [
        { title: "Foundations", duration: 6 },
        { title: "Case studies", duration: 8, video: "test-fixtures/sample-video-2.mp4" },
      ],
    });
    await offerCredit(
      adminApi,
      course.id,
      singleCreditOffer({
        body: "State Medical Board",
        providerNumber: "PN-20461",
        name: "CME credits",
        amount: 2.5,
      }),
    );
    const learner = await createLearner({ name: "Dana Scully" });
    await enroll(adminApi, learner.id, course.id);
    await completeModules(learner, { ...course, modules: course.modules } as never, 1);

    // The learner completes the last module in the player.
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto(`/course/${course.id}`);
    await expect(page.getByRole("heading", { level: 2, name: "Case studies" })).toBeVisible();
    await page.getByRole("button", { name: "Mark as Complete" }).click();
    const celebration = page.getByTestId("course-complete");
    await expect(celebration).toBeVisible();

    const mine = await page.request.get("/api/certificates/mine");
    expect(mine.status()).toBe(200);
    const [issued] = (await mine.json()) as Issued[];
    expect(issued!.verifyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/verify\/[0-9A-Z]{32}$/);
    const code = formatCertificateCode(issued!.code);

    // The spec's HTML certificate, with the code, the address and its QR code.
    const htmlDownload = page.waitForEvent("download");
    await celebration.getByRole("button", { name: /^Download HTML/ }).click();
    const html = readFileSync((await (await htmlDownload).path())!, "utf8");
    expect((await htmlDownload).suggestedFilename()).toBe(
      `Certificate-${course.title.replace(/\s+/g, "-")}.html`,
    );
    expect(html).toContain(`Certificate no. ${code}`);
    expect(html).toContain(`<p class="url">${issued!.verifyUrl}</p>`);
    // The credit, labelled, never the spec's whole hours; then how it is accredited.
    expect(html).not.toContain("Course length");
    expect(html).toContain("Credit:</span> 2.5 CME credits</span>");
    expect(html).toContain(
      '<p class="credit">Accredited by State Medical Board · Provider no. PN-20461</p>',
    );
    expect(html).not.toMatch(/<script|<link|<img|(src|href)=/i);

    const certificatePage = await page.context().newPage();
    await certificatePage.setContent(html);
    await expect(certificatePage.getByText("Dana Scully")).toBeVisible();
    await screen(certificatePage, "certificate-verifiable");
    // On a phone the whole sheet is on screen, scaled, with nothing to scroll sideways.
    await certificatePage.setViewportSize({ width: 390, height: 844 });
    await expect
      .poll(() => certificatePage.evaluate(() => document.documentElement.scrollWidth))
      .toBeLessThanOrEqual(390);
    const sheet = await certificatePage.getByRole("article").boundingBox();
    expect(sheet!.x).toBeGreaterThanOrEqual(0);
    expect(sheet!.x + sheet!.width).toBeLessThanOrEqual(390);
    // The PDF's proportions (842 x 595 points), kept at any size.
    expect(sheet!.width / sheet!.height).toBeCloseTo(842 / 595, 1);
    await screen(certificatePage, "certificate-verifiable-390");
    // Printed, it is still one landscape page.
    const printed = await PDFDocument.load(await certificatePage.pdf({ preferCSSPageSize: true }));
    expect(printed.getPageCount()).toBe(1);
    const { width: pageWidth, height: pageHeight } = printed.getPage(0).getSize();
    expect(pageWidth).toBeGreaterThan(pageHeight);
    await certificatePage.setViewportSize({ width: 1280, height: 800 });
    await expect(certificatePage.locator("svg.qr")).toHaveAttribute(
      "data-verify-url",
      issued!.verifyUrl,
    );
    const fromQr = await decodeQr(certificatePage);
    expect(fromQr, "the QR code decodes to the verification address").toBe(issued!.verifyUrl);
    await certificatePage.close();

    // The PDF beside it, on the Certificates tab.
    await dismissToast(page);
    await page.goto("/learner?tab=certificates");
    const item = page.getByTestId("certificate-item");
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId("certificate-code")).toHaveText(code);
    await screensAtBothWidths(page, "learner-certificates-verifiable");
    const pdfDownload = page.waitForEvent("download");
    await item.getByRole("link", { name: `PDF certificate for ${course.title}` }).click();
    expect((await pdfDownload).suggestedFilename()).toBe(
      `Certificate-${course.title.replace(/\s+/g, "-")}.pdf`,
    );
    const pdf = readFileSync((await (await pdfDownload).path())!);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(pdf);
    expect(text).toContain(`Certificate no. ${code}`);
    expect(text).toContain("Dana Scully");
    // The same fields as the HTML certificate: the credit, never the spec's whole hours.
    expect(text).toContain("Credit: 2.5 CME credits");
    expect(text).not.toContain("Course length");
    expect(text).toContain("Accredited by State Medical Board · Provider no. PN-20461");

    // The transcript, with its downloads.
    await page.getByRole("link", { name: "Transcript" }).click();
    await expect(page).toHaveURL(/\/learner\/transcript$/);
    await expect(page.getByTestId("transcript-certificate-code")).toHaveText(code);
    await expect(page.getByTestId("transcript-credit")).toHaveText("2.5 CME credits");
    await screensAtBothWidths(page, "learner-transcript");
    const csvDownload = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const csv = readFileSync((await (await csvDownload).path())!, "utf8");
    expect(csv).toContain(`${course.title},Design,completed,100`);
    expect(csv).toContain(code);
    const transcriptPdf = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download PDF" }).click();
    const transcriptBytes = readFileSync((await (await transcriptPdf).path())!);
    expect(await pdfText(transcriptBytes)).toContain(`Certificate ${code}`);

    // Anyone, signed out, types the code printed on the paper (in groups, in lower case) on
    // the lookup page, and lands on the address the QR code holds: valid.
    const visitor = await browser.newContext({ locale: "en-US", timezoneId: "UTC" });
    const publicPage = await visitor.newPage();
    await publicPage.goto("/verify");
    await expect(publicPage.getByRole("heading", { level: 1 })).toHaveText("Verify a certificate");
    await screensAtBothWidths(publicPage, "verify-lookup");
    await publicPage.getByRole("button", { name: "Verify" }).click();
    await expect(publicPage.getByText("Enter the code printed on the certificate.")).toBeVisible();
    const typedCode = issued!.code
      .match(/.{1,4}/g)!
      .join("-")
      .toLowerCase();
    await publicPage.getByLabel("Certificate code").fill(typedCode);
    await publicPage.getByLabel("Certificate code").press("Enter");
    await expect(publicPage).toHaveURL(new URL(fromQr!).pathname);
    const result = publicPage.getByTestId("verification-result");
    await expect(result).toHaveAttribute("data-status", "valid");
    await expect(publicPage.getByRole("heading", { level: 1 })).toHaveText("✓ Valid certificate");
    await expect(result).toContainText("Dana Scully");
    await expect(result).toContainText(course.title);
    await expect(result).toContainText("2.5 CME credits");
    await expect(result).not.toContainText(learner.email);
    await screensAtBothWidths(publicPage, "verify-valid");

    // An administrator revokes it, with a reason, from the learner's record.
    await adminPage.goto("/admin/learners");
    await adminPage
      .getByRole("searchbox", { name: "Search learners by name or email" })
      .fill(learner.email);
    await adminPage.getByRole("link", { name: "Transcript of Dana Scully" }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/admin/learners/${learner.id}$`));
    await expect(adminPage.getByRole("heading", { level: 1 })).toHaveText("Dana Scully");
    await screensAtBothWidths(adminPage, "admin-learner-record");
    await adminPage
      .getByRole("button", { name: `Revoke the certificate for ${course.title}` })
      .click();
    const dialog = adminPage.getByRole("dialog", { name: "Revoke certificate" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Revoke certificate" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Give a reason of at least 3 characters");
    await dialog.getByLabel("Reason").fill("Attendance records did not match the session logs.");
    await screen(adminPage, "admin-revoke-dialog");
    await dialog.getByRole("button", { name: "Revoke certificate" }).click();
    await expectToast(adminPage, "Certificate revoked");
    await expect(dialog).toBeHidden();
    await expect(adminPage.getByTestId("transcript-entry")).toContainText("Revoked");

    // The audit trail: exported as CSV, and the chain checks out.
    await adminPage.goto("/admin/audit");
    await adminPage.getByRole("button", { name: "Verify the chain" }).click();
    await expect(adminPage.getByTestId("audit-chain-status")).toContainText("Chain intact");
    await screensAtBothWidths(adminPage, "admin-audit");
    const auditDownload = adminPage.waitForEvent("download");
    await adminPage.getByTestId("audit-export").click();
    const audit = readFileSync((await (await auditDownload).path())!, "utf8");
    expect(audit.split("\r\n")[0]).toBe(
      "seq,at,type,actor_id,actor_role,learner_id,course_id,module_id,details,prev_hash,hash," +
        "actor_name,actor_email,learner_name,learner_email,course_title",
    );
    // Beside the ids, who and what they are.
    // Other tests revoke certificates too: this learner's revocation is the one to read.
    const revokedLine = audit
      .split("\r\n")
      .find((line) => line.includes(",certificate.revoked,") && line.includes(learner.email));
    expect(revokedLine).toContain(`,${admin.name},${admin.email},Dana Scully,${learner.email},`);
    expect(revokedLine!.endsWith(course.title)).toBe(true);
    for (const type of [
      "enrollment.created",
      "module.completed",
      "course.completed",
      "certificate.issued",
      "certificate.revoked",
    ]) {
      expect(audit).toContain(`,${type},`);
    }

    // The public page now says revoked, with the reason and the date.
    await publicPage.reload();
    await expect(result).toHaveAttribute("data-status", "revoked");
    await expect(publicPage.getByRole("heading", { level: 1 })).toHaveText("✗ Revoked certificate");
    await expect(result).toContainText("Attendance records did not match the session logs.");
    await screensAtBothWidths(publicPage, "verify-revoked");

    // The learner sees it revoked at once: when and why, with nothing left to download or share.
    await page.goto("/learner?tab=certificates");
    const revokedNote = item.getByTestId("certificate-revoked");
    await expect(revokedNote).toContainText(/Revoked on [A-Z][a-z]+ \d{1,2}, \d{4}/);
    await expect(revokedNote).toContainText(
      "Reason: Attendance records did not match the session logs.",
    );
    await expect(item.getByRole("link", { name: /PDF certificate/ })).toHaveCount(0);
    await expect(item.getByRole("button", { name: /HTML certificate/ })).toHaveCount(0);
    await expect(item.getByRole("link", { name: /LinkedIn/ })).toHaveCount(0);
    await expect(item.getByTestId("certificate-code")).toHaveText(code);
    await screensAtBothWidths(page, "learner-certificates-revoked");
    await page.goto("/learner/transcript");
    await expect(page.getByTestId("transcript-revoked")).toContainText(
      "Reason: Attendance records did not match the session logs.",
    );
    await expect(page.getByTestId("transcript-credit")).toHaveText("None yet");
    await expect(page.getByTestId("transcript-entry-credit")).toContainText(
      "Not counted: certificate revoked",
    );
    await expect(page.getByRole("link", { name: /^Certificate PDF/ })).toHaveCount(0);
    await screensAtBothWidths(page, "learner-transcript-revoked");

    // An unknown code: not found, like any random one.
    await publicPage.goto("/verify/0000000000000000000000000000ZZZZ");
    await expect(publicPage.getByRole("heading", { level: 1 })).toHaveText("No certificate found");
    await screen(publicPage, "verify-unknown");
    await visitor.close();
  });
});
