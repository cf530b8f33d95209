import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Completion, type CreditSettingsBody, IMAGE_MAX_SIDE_PX } from "../../../contract";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { pngOfSize } from "../../testing/images";
import { call, completeViaApi } from "../../testing/learning";
import { pdfText } from "../../testing/pdf-text";

const signaturePng = readFileSync(
  new URL("../../../../test-fixtures/sample-signature.png", import.meta.url),
);

describe("credit settings, signatures, licences and the credit report", () => {
  const { ctx, setup, certificatesOf } = useCreditClaim();

  it("withholds the certificate until the licence a course asks for is entered, then prints it and reports it", async () => {
    const { adminCookie, course, learner, cookie, url } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      2,
      creditOffer([creditType({ licenceRequired: true })], { ACCME: "PN-ACCME-7" }),
    );
    const settings: CreditSettingsBody = {
      sponsorName: "Credo Medical Education",
      sponsorAddress: "1 Main St, Springfield",
      deliveryMethod: "Internet-based enduring material",
      fieldsOfStudy: [
        { field: "Cardiology", credits: 1.5 },
        { field: "Ethics", credits: 0.5 },
      ],
      officialName: "Grace Hopper",
      officialTitle: "Director of CME",
    };
    const saved = await call(ctx, "PUT", url("credit-settings"), {
      cookie: adminCookie,
      payload: settings,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await completeViaApi(ctx, cookie, learner.id, course, 2);
    const attested = await call(ctx, "POST", url("attest"), {
      cookie,
      payload: { statement: STATEMENT, creditsClaimed: 1 },
    });
    expect(attested.statusCode).toBe(200);
    expect(await certificatesOf(cookie)).toEqual([]);
    const waiting = (await call(ctx, "GET", url("completion"), { cookie })).json() as Completion;
    expect(waiting.next).toBe("certificate");

    const badNpn = await call(ctx, "PUT", "/api/profile/licence", {
      cookie,
      payload: { licenceType: "", licenceNumber: "", licenceState: "", npn: "12-34" },
    });
    expect(badNpn.statusCode).toBe(400);
    const licence = { licenceType: "MD", licenceNumber: "A-12345", licenceState: "CA", npn: "" };
    const put = await call(ctx, "PUT", "/api/profile/licence", { cookie, payload: licence });
    expect(put.statusCode).toBe(200);
    expect((await call(ctx, "GET", "/api/profile/licence", { cookie })).json()).toEqual(licence);

    const [certificate] = await certificatesOf(cookie);
    expect(certificate!.credit).toMatchObject({
      creditsClaimed: 1,
      sponsorName: "Credo Medical Education",
      officialName: "Grace Hopper",
      licence,
      // Scaled to the claim of the type they count: 1 of its 2 credits.
      fieldsOfStudy: [
        { field: "Cardiology", credits: 0.75 },
        { field: "Ethics", credits: 0.25 },
      ],
    });
    // The PDF prints the credit awarded, the prescribed content, the licence and the official.
    const signed = await call(ctx, "PUT", url("signature"), {
      cookie: adminCookie,
      payload: { dataUrl: `data:image/png;base64,${signaturePng.toString("base64")}` },
    });
    expect(signed.statusCode).toBe(200);
    const pdf = await call(ctx, "GET", `/api/certificates/${certificate!.id}/pdf`, { cookie });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, " ");
    for (const expected of [
      "Анна Иванова",
      "1 AMA PRA Category 1 Credit™",
      "Credo Medical Education",
      "1 Main St, Springfield",
      "Internet-based enduring material",
      "Cardiology: 0.75",
      "Ethics: 0.25",
      "PN-ACCME-7",
      "MD A-12345",
      "CA",
      "Grace Hopper",
      "Director of CME",
      "Credo Medical designates this enduring material",
      "Credo Medical is accredited by the ACCME",
    ]) {
      expect(text).toContain(expected);
    }

    // The public verification answer shows the certificate, never the learner's email.
    const verified = await call(ctx, "GET", `/api/certificates/verify/${certificate!.code}`);
    expect(verified.body).not.toContain(learner.email);

    const enrolledOn = (await call(ctx, "GET", url("activity"), { cookie }))
      .json()
      .standing.enrolledAt.slice(0, 10);
    const report = await call(ctx, "GET", url("credit-report"), { cookie: adminCookie });
    expect(report.statusCode).toBe(200);
    const rows = parseCsv(report.body.replace(/^\ufeff/, ""));
    expect(rows[0]).toEqual([
      "Learner name",
      "Email",
      "Licence type",
      "Licence number",
      "Issuing state or board",
      "NPN",
      "Enrolled on",
      "Completed on",
      "Attested on",
      "Credit type",
      "Credits claimed",
      "Accrediting body",
      "Provider number",
      "Credits: Cardiology",
      "Credits: Ethics",
      "Exam score",
      "Certificate code",
    ]);
    expect(rows[1]).toEqual([
      "Анна Иванова",
      learner.email,
      "MD",
      "A-12345",
      "CA",
      "",
      enrolledOn,
      certificate!.completedAt.slice(0, 10),
      attested.json().attestedAt.slice(0, 10),
      "AMA PRA Category 1 Credit™",
      "1",
      "ACCME",
      "PN-ACCME-7",
      "0.75",
      "0.25",
      "",
      certificate!.code,
    ]);
    expect((await call(ctx, "GET", url("credit-report"), { cookie })).statusCode).toBe(403);
  });

  it("stores the official's signature only when its bytes are a PNG or JPEG, and serves it to anyone", async () => {
    const { adminCookie, url } = await setup(null, 1);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
      "base64",
    );
    const put = (dataUrl: string) =>
      call(ctx, "PUT", url("signature"), { cookie: adminCookie, payload: { dataUrl } });
    const html = Buffer.from("<html><script>alert(1)</script></html>").toString("base64");
    expect((await put(`data:image/png;base64,${html}`)).statusCode).toBe(400);
    expect((await put(`data:image/jpeg;base64,${png.toString("base64")}`)).statusCode).toBe(400);
    expect((await put(`data:image/svg+xml;base64,${html}`)).statusCode).toBe(400);
    // A few kilobytes that say they are a picture too large for any certificate to draw.
    const asPng = (bytes: Buffer) => `data:image/png;base64,${bytes.toString("base64")}`;
    const tooWide = await put(asPng(pngOfSize(IMAGE_MAX_SIDE_PX + 1, 300)));
    expect([tooWide.statusCode, tooWide.json().code]).toEqual([400, "credit.signature_not_image"]);
    expect(tooWide.json().message).toBe(
      "Upload a PNG or JPEG image of at most 150 KB and 2000 × 2000 pixels.",
    );
    expect((await put(asPng(pngOfSize(30_000, 30_000)))).statusCode).toBe(400);
    expect((await put(asPng(pngOfSize(IMAGE_MAX_SIDE_PX, 300)))).statusCode).toBe(200);
    const saved = await put(`data:image/png;base64,${png.toString("base64")}`);
    expect(saved.statusCode).toBe(200);
    const { signatureId } = saved.json();
    const served = await call(ctx, "GET", `/api/signatures/${signatureId}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.rawPayload.equals(png)).toBe(true);
    const removed = await call(ctx, "DELETE", url("signature"), { cookie: adminCookie });
    expect(removed.json().signatureId).toBeNull();
    // The image stays for the certificates that printed it.
    expect((await call(ctx, "GET", `/api/signatures/${signatureId}`)).statusCode).toBe(200);
  });
});
