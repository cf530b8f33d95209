import { readFileSync } from "node:fs";
import { formatCertificateCode } from "../src/contract";
import { expect, signIn, test } from "./support/fixtures";
import { createPublishedCourse, enroll, offerCredit, singleCreditOffer } from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/** Every certificate is also an Open Badges 3.0 credential (docs/credentials.md). */

type Issued = {
  id: string;
  code: string;
  verifyUrl: string;
  issuedAt: string;
  issuerName: string;
};

test.describe("Open Badges credentials", () => {
  test("the learner downloads the credential and adds it to LinkedIn; the verify page and the browser check it valid, then revoked", async ({
    page,
    browser,
    adminApi,
    createLearner,
    completeModules,
  }) => {
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Medical Ethics ${stamp}`,
      duration: 3,
      modules: [{ title: "Consent", duration: 6 }],
    });
    await offerCredit(
      adminApi,
      course.id,
      singleCreditOffer({
        body: "State Medical Board",
        providerNumber: "PN-7788",
        name: "CME credits",
        amount: 1.5,
      }),
    );
    const learner = await createLearner({ name: "Rosalind Franklin" });
    await enroll(adminApi, learner.id, course.id);
    await completeModules(learner, { ...course, modules: course.modules } as never, 1);

    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    const mine = await page.request.get("/api/certificates/mine");
    const [issued] = (await mine.json()) as Issued[];

    // The Certificates tab: the signed credential to keep, and LinkedIn's form filled in.
    await page.goto("/learner?tab=certificates");
    const item = page.getByTestId("certificate-item");
    await expect(item.getByTestId("certificate-code")).toHaveText(
      formatCertificateCode(issued!.code),
    );
    const download = page.waitForEvent("download");
    await item.getByRole("link", { name: `Download credential for ${course.title}` }).click();
    expect((await download).suggestedFilename()).toBe(
      `Credential-${course.title.replace(/\s+/g, "-")}.json`,
    );
    const credential = JSON.parse(readFileSync((await (await download).path())!, "utf8"));
    expect(credential.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(credential.id).toBe(issued!.verifyUrl);
    expect(credential.issuer.id).toMatch(/^did:web:127\.0\.0\.1%3A\d+$/);
    expect(credential.credentialSubject).toMatchObject({
      name: "Rosalind Franklin",
      creditsEarned: 1.5,
      achievement: { name: course.title },
    });
    expect(credential.proof).toMatchObject({ cryptosuite: "eddsa-rdfc-2022" });

    const linkedIn = item.getByRole("link", { name: /^Add to LinkedIn/ });
    await expect(linkedIn).toHaveAttribute("target", "_blank");
    const url = new URL((await linkedIn.getAttribute("href"))!);
    expect(`${url.origin}${url.pathname}`).toBe("https://www.linkedin.com/profile/add");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: course.title,
      organizationName: issued!.issuerName,
      issueYear: issued!.issuedAt.slice(0, 4),
      issueMonth: String(Number(issued!.issuedAt.slice(5, 7))),
      certUrl: issued!.verifyUrl,
      certId: formatCertificateCode(issued!.code),
    });
    await screensAtBothWidths(page, "credentials-learner-certificates");

    // The transcript offers the same two.
    await page.getByRole("link", { name: "Transcript" }).click();
    await expect(page).toHaveURL(/\/learner\/transcript$/);
    const entry = page.getByTestId("transcript-entry");
    await expect(
      entry.getByRole("link", { name: `Download credential for ${course.title}` }),
    ).toHaveAttribute("href", `/api/certificates/${issued!.code}/credential`);
    await expect(entry.getByRole("link", { name: /^Add to LinkedIn/ })).toBeVisible();
    await screensAtBothWidths(page, "credentials-learner-transcript");

    // The learner's own view of the verification page: beside the record check and the
    // portal's check of the credential, the same credential verified by the browser itself.
    const verifyPath = new URL(issued!.verifyUrl).pathname;
    await page.goto(verifyPath);
    const inBrowser = page.getByTestId("browser-credential-check");
    await expect(inBrowser).toHaveAttribute("data-result", "valid");
    await expect(inBrowser.getByRole("heading")).toHaveText("Checked in your browser: valid");
    await expect(page.getByTestId("credential-check")).toHaveAttribute("data-result", "valid");
    await screensAtBothWidths(page, "credentials-verify-in-browser");

    // Anyone with the address sees the record check and, beside it, the credential's; not
    // the credential itself, so no check of it in the browser.
    const visitor = await browser.newContext({ locale: "en-US", timezoneId: "UTC" });
    const publicPage = await visitor.newPage();
    await publicPage.goto(verifyPath);
    await expect(publicPage.getByTestId("verification-result")).toHaveAttribute(
      "data-status",
      "valid",
    );
    const check = publicPage.getByTestId("credential-check");
    await expect(check).toHaveAttribute("data-result", "valid");
    await expect(check.getByRole("heading")).toHaveText("Verifiable credential: valid");
    await expect(check).toContainText(credential.issuer.id);
    await expect(check).toContainText("eddsa-rdfc-2022");
    await expect(publicPage.getByTestId("browser-credential-check")).toHaveCount(0);
    await screensAtBothWidths(publicPage, "credentials-verify-valid");

    // The file the learner shared, checked in the visitor's browser: genuine and this
    // certificate's; a copy with another name is reported altered.
    const fileInput = publicPage.getByLabel("Credential file", { exact: true });
    const fileCheck = publicPage.getByTestId("credential-file-check");
    await fileInput.setInputFiles({
      name: (await download).suggestedFilename(),
      mimeType: "application/json",
      buffer: readFileSync((await (await download).path())!),
    });
    await expect(fileCheck).toHaveAttribute("data-result", "valid");
    await expect(fileCheck.getByRole("heading")).toHaveText("Credential file: valid");
    await expect(publicPage.getByTestId("credential-file-match")).toHaveAttribute(
      "data-matches",
      "true",
    );
    const altered = structuredClone(credential);
    altered.credentialSubject.name = "Marie Curie";
    await fileInput.setInputFiles({
      name: "Credential-altered.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(altered)),
    });
    await expect(fileCheck).toHaveAttribute("data-problem", "altered");
    await expect(fileCheck.getByRole("heading")).toHaveText("Credential file: altered");
    await screensAtBothWidths(publicPage, "credentials-verify-file-altered");

    // An administrator revokes the certificate: its credential's status bit is set.
    const revoked = await adminApi.post(`/api/certificates/${issued!.id}/revoke`, {
      data: { reason: "Attendance could not be confirmed." },
    });
    expect(revoked.status(), await revoked.text()).toBe(200);
    await publicPage.reload();
    await expect(publicPage.getByTestId("verification-result")).toHaveAttribute(
      "data-status",
      "revoked",
    );
    await expect(check).toHaveAttribute("data-result", "revoked");
    await expect(check.getByRole("heading")).toHaveText("Verifiable credential: revoked");
    await screensAtBothWidths(publicPage, "credentials-verify-revoked");
    await visitor.close();

    // The learner's browser reads the status list afresh: revoked there too.
    await page.reload();
    await expect(inBrowser).toHaveAttribute("data-result", "revoked");
    await expect(inBrowser.getByRole("heading")).toHaveText("Checked in your browser: revoked");
    await screensAtBothWidths(page, "credentials-verify-in-browser-revoked");
  });
});
