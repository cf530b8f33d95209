import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Organisation, Transcript } from "../../../contract";
import { parseCsv } from "../../testing/csv";
import { pngOfSize } from "../../testing/images";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { leafParts, outboxMessages } from "../../testing/mail";
import { pdfText } from "../../testing/pdf-text";
import { useTestApp } from "../../testing/test-app";
import { fixture, putUpload, requestUpload, setAcl, uploadObject } from "../../testing/uploads";

const PROFILE = {
  name: "Northwind CPE Institute",
  logoPath: null,
  address: "1 Main Street\nSpringfield, IL 62701",
  contactEmail: "CPE@Northwind.example",
  dateFormat: "day-month-year",
} as const;

describe("organisation profile", () => {
  const ctx = useTestApp({ PRODUCT_NAME: "Acme Academy" });
  const videoPath = useSharedVideo(ctx);
  const outbox = () => outboxMessages(join(ctx.dataDir, "outbox"));

  const profile = async () => (await call(ctx, "GET", "/api/organisation")).json() as Organisation;
  const save = (cookie: string | undefined, body: object) =>
    call(ctx, "PUT", "/api/admin/organisation", { cookie, payload: body });

  it("issues as the product name until an administrator names the organisation", async () => {
    // Public: every certificate's verification page prints its issuer.
    expect(await profile()).toEqual({
      name: "",
      logoPath: null,
      address: "",
      contactEmail: "",
      dateFormat: "month-day-year",
      issuerName: "Acme Academy",
      logoUrl: null,
    });
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const saved = await save(admin, PROFILE);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      ...PROFILE,
      contactEmail: "cpe@northwind.example",
      issuerName: "Northwind CPE Institute",
      logoUrl: null,
    });
    expect(await profile()).toEqual(saved.json());
  });

  it("refuses a bad profile with the field named, and changes nothing", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    await save(admin, PROFILE);
    const before = await profile();
    const refusals: [object, string][] = [
      [{ contactEmail: "not an email" }, "contactEmail"],
      [{ name: "x".repeat(121) }, "name"],
      [{ address: "x".repeat(301) }, "address"],
      [{ dateFormat: "dd/mm/yyyy" }, "dateFormat"],
      [{ logoPath: "/objects/uploads/../../etc/passwd" }, "logoPath"],
      [{ logoPath: "https://evil.example/logo.png" }, "logoPath"],
    ];
    for (const [change, path] of refusals) {
      const response = await save(admin, { ...PROFILE, ...change });
      expect(response.statusCode, path).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation.invalid_body", path });
    }
    const unknown = await save(admin, { ...PROFILE, issuer: "Someone else" });
    expect(unknown.statusCode).toBe(400);
    expect(await profile()).toEqual(before);
  });

  it("lets only administrators change it", async () => {
    const learner = await signInAs(ctx, await quickLearner(ctx));
    const asLearner = await save(learner, PROFILE);
    expect(asLearner.statusCode).toBe(403);
    expect(asLearner.json()).toMatchObject({ code: "auth.forbidden" });
    const anonymous = await save(undefined, PROFILE);
    expect(anonymous.statusCode).toBe(401);
    expect((await profile()).issuerName).toBe("Acme Academy");
  });

  it("takes a PNG or JPEG logo checked by its bytes and size, and refuses anything else", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    // An SVG can carry script: refused by its declared type, and by its bytes.
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>');
    const asSvg = await requestUpload(ctx, admin, {
      kind: "logo",
      contentType: "image/svg+xml",
      size: svg.length,
    });
    expect(asSvg.statusCode).toBe(415);
    expect(asSvg.json()).toMatchObject({ code: "uploads.type_not_allowed" });
    const tooLarge = await requestUpload(ctx, admin, {
      kind: "logo",
      contentType: "image/png",
      size: 1_048_577,
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: "uploads.too_large" });
    const disguised = await requestUpload(ctx, admin, {
      kind: "logo",
      contentType: "image/png",
      size: svg.length,
    });
    const { uploadURL } = disguised.json() as { uploadURL: string };
    const put = await putUpload(ctx, admin, uploadURL, svg, "image/png");
    expect(put.statusCode).toBe(415);
    expect(JSON.parse(put.body)).toMatchObject({ code: "uploads.content_mismatch" });
    expect((await setAcl(ctx, admin, uploadURL)).statusCode).toBe(409);
    // A PNG of kilobytes that says it is a picture too large for any certificate to draw.
    const bomb = pngOfSize(30_000, 30_000);
    const asBomb = await requestUpload(ctx, admin, {
      kind: "logo",
      contentType: "image/png",
      size: bomb.length,
    });
    const bombUrl = (asBomb.json() as { uploadURL: string }).uploadURL;
    const bombPut = await putUpload(ctx, admin, bombUrl, bomb, "image/png");
    expect([bombPut.statusCode, JSON.parse(bombPut.body).code]).toEqual([413, "uploads.too_large"]);
    expect(JSON.parse(bombPut.body).message).toBe("The image is larger than 2000 × 2000 pixels.");

    // Neither the refused upload nor another kind of image becomes the logo.
    const refusedPath = `/objects/uploads/${uploadURL.split("/").pop()}`;
    const thumbnail = await uploadObject(ctx, admin, { kind: "thumbnail" });
    for (const logoPath of [refusedPath, thumbnail]) {
      const response = await save(admin, { ...PROFILE, logoPath });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: "organisation.logo_not_uploaded",
        path: "logoPath",
      });
    }
    expect((await profile()).logoPath).toBeNull();

    const logoPath = await uploadObject(ctx, admin, { kind: "logo", file: "sample-thumbnail.png" });
    const saved = (await save(admin, { ...PROFILE, logoPath })).json() as Organisation;
    expect(saved.logoPath).toBe(logoPath);
    expect(saved.logoUrl).toMatch(/^\/api\/organisation\/logos\/[A-Za-z0-9_-]{24}$/);
    // Anyone may read it, as the bytes were checked.
    const logo = await call(ctx, "GET", saved.logoUrl!);
    expect(logo.statusCode).toBe(200);
    expect(logo.headers["content-type"]).toBe("image/png");
    expect(logo.headers["x-content-type-options"]).toBe("nosniff");
    expect(logo.rawPayload.equals(fixture("sample-thumbnail.png"))).toBe(true);
    const missing = await call(ctx, "GET", "/api/organisation/logos/AAAAAAAAAAAAAAAAAAAAAAAA");
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "organisation.logo_not_found" });
    const malformed = await call(ctx, "GET", "/api/organisation/logos/..%2F..%2Fetc");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "validation.invalid_params" });
  });

  it("is the issuer on certificates, transcripts and emails; an issued certificate keeps its own", async () => {
    const admin = await signInAs(ctx, await quickAdmin(ctx));
    const logoPath = await uploadObject(ctx, admin, { kind: "logo", file: "sample-thumbnail.png" });
    const organisation = (await save(admin, { ...PROFILE, logoPath })).json() as Organisation;

    // An invitation comes from the organisation and is signed with its contact.
    const email = `ines-${Date.now()}@example.com`;
    const registered = await call(ctx, "POST", "/api/auth/register", {
      cookie: admin,
      payload: { email, name: "Inès Learner" },
    });
    expect(registered.statusCode).toBe(201);
    const invitation = outbox().find((m) => m.mime.headers.to?.includes(email))!;
    expect(invitation.mime.headers.from).toMatch(/^"?Northwind CPE Institute"? <.+>$/);
    expect(invitation.mime.headers.subject).toBe("Your Northwind CPE Institute account is ready");
    const invitationText = leafParts(invitation.mime)
      .find((p) => p.contentType.startsWith("text/plain"))!
      .body.toString("utf8");
    expect(invitationText).toContain(
      "--\nNorthwind CPE Institute\n1 Main Street\nSpringfield, IL 62701\ncpe@northwind.example",
    );

    const course = await buildPublishedCourse(ctx, admin, {
      video: await videoPath(admin),
      title: "Ethics for CPAs",
    });
    const learner = await quickLearner(ctx, { name: "Ada Lovelace" });
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, admin, learner.id, course.id);
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    await ctx.database.changes.sync();
    await ctx.app.mailJobs.certificateMailsIdle();

    const [certificate] = (await call(ctx, "GET", "/api/certificates/mine", { cookie })).json();
    expect(certificate).toMatchObject({
      issuerName: "Northwind CPE Institute",
      issuerLogoUrl: organisation.logoUrl,
    });
    const verified = await call(ctx, "GET", `/api/certificates/verify/${certificate.code}`);
    expect(verified.json().certificate).toMatchObject({
      issuerName: "Northwind CPE Institute",
      issuerLogoUrl: organisation.logoUrl,
    });

    // The PDF names the organisation and prints the chosen date format.
    const pdf = await call(ctx, "GET", `/api/certificates/${certificate.id}/pdf`, { cookie });
    expect(pdf.statusCode).toBe(200);
    const printed = await pdfText(new Uint8Array(pdf.rawPayload));
    expect(printed).toContain("Northwind CPE Institute");
    const day = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" }).format(
      new Date(certificate.completedAt),
    );
    expect(printed).toContain(day);

    // The certificate mail comes from the organisation too.
    const mail = outbox().find(
      (m) => m.mime.headers.subject === "Your certificate for Ethics for CPAs",
    )!;
    expect(mail.mime.headers.from).toMatch(/Northwind CPE Institute/);
    const html = leafParts(mail.mime).find((p) => p.contentType.startsWith("text/html"))!;
    expect(html.body.toString("utf8")).toContain("Northwind CPE Institute");

    // Transcripts: JSON, CSV and PDF.
    const transcript = (
      await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie })
    ).json() as Transcript;
    expect(transcript).toMatchObject({
      issuerName: "Northwind CPE Institute",
      issuerAddress: PROFILE.address,
      issuerContactEmail: "cpe@northwind.example",
    });
    const csv = await call(ctx, "GET", `/api/learners/${learner.id}/transcript.csv`, { cookie });
    expect(parseCsv(csv.body.replace(/^\ufeff/, ""))).toContainEqual([
      "Issued by",
      "Northwind CPE Institute",
    ]);
    const transcriptPdf = await call(ctx, "GET", `/api/learners/${learner.id}/transcript.pdf`, {
      cookie,
    });
    const transcriptText = await pdfText(new Uint8Array(transcriptPdf.rawPayload));
    expect(transcriptText).toContain("Northwind CPE Institute");
    expect(transcriptText).toContain("cpe@northwind.example");
    // The transcript's wording, and every date in the format chosen in Settings.
    const transcriptWords = transcriptText.replace(/\s+/g, " ");
    expect(transcriptWords).toContain("Transcript of continuing education");
    expect(transcriptWords).toContain("1 course · 1 completed");
    expect(transcriptWords).toContain(day);
    expect(transcriptWords).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);

    // Renamed later, the organisation issues new certificates under its new name; the one
    // issued keeps the name and logo it was issued with.
    await save(admin, { ...PROFILE, name: "Northwind Learning", logoPath: null });
    expect(
      (await call(ctx, "GET", `/api/certificates/verify/${certificate.code}`)).json().certificate,
    ).toMatchObject({ issuerName: "Northwind CPE Institute", issuerLogoUrl: organisation.logoUrl });
    const renamed = (
      await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie })
    ).json() as Transcript;
    expect(renamed.issuerName).toBe("Northwind Learning");
  });
});
