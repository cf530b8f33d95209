import { describe, expect, it } from "vitest";
import { CREDIT_MESSAGES, verifyCertificateResponseSchema } from "../../contract";
import { accme, creditOffer, creditType, STATEMENT, useCreditClaim } from "../testing/credit-claim";
import { parseCsv } from "../testing/csv";
import { call, completeViaApi } from "../testing/learning";
import { expectRefusal, expectUnchanged, settleBackgroundWork, snapshotAll } from "./support";

describe("credit claim attacks", () => {
  const { ctx, setup, certificatesOf } = useCreditClaim();

  /** A learner who completed the modules of a course asking no evaluation: next is the attestation. */
  async function readyToAttest(options: { licenceRequired?: boolean } = {}) {
    const s = await setup(
      accme({ evaluationRequired: false }),
      2,
      creditOffer([creditType({ licenceRequired: options.licenceRequired ?? false })]),
    );
    expect((await call(ctx, "POST", s.url("acknowledge"), { cookie: s.cookie })).statusCode).toBe(
      200,
    );
    await completeViaApi(ctx, s.cookie, s.learner.id, s.course, 2);
    const attest = (creditsClaimed: unknown) =>
      call(ctx, "POST", s.url("attest"), {
        cookie: s.cookie,
        payload: { statement: STATEMENT, creditsClaimed },
      });
    return { ...s, attest };
  }

  it("refuses a hair-thin or over-precise claim (1e-9, 5e-324, 1.7500001) with 400 instead of rounding it onto a certificate", async () => {
    const { attest, cookie } = await readyToAttest();
    await settleBackgroundWork(ctx);
    const before = await snapshotAll(ctx);
    for (const claim of [1e-9, 5e-324, 1.7500001, 0.2500000001, 1.75 + 1e-12]) {
      const refused = await attest(claim);
      expectRefusal(refused, 400, String(claim));
      expect(refused.json()).toMatchObject({
        code: "validation.invalid_body",
        path: "creditsClaimed",
      });
    }
    // Numbers of hundredths the course's steps do not make, or above its credit: refused too.
    for (const [claim, code, message] of [
      [
        0.3,
        "attestation.claim_off_step",
        CREDIT_MESSAGES.claimOffStep(0.25, "AMA PRA Category 1 Credit™"),
      ],
      [
        2.25,
        "attestation.claim_too_high",
        CREDIT_MESSAGES.claimTooHigh(2, "AMA PRA Category 1 Credit™"),
      ],
    ] as const) {
      const refused = await attest(claim);
      expectRefusal(refused, 400, String(claim));
      expect(refused.json()).toMatchObject({ code, message });
    }
    await expectUnchanged(ctx, before, "after refused claims");
    expect(await certificatesOf(cookie)).toEqual([]);

    // The step is still open: a claim on the steps is recorded as sent.
    const attested = await attest(1.75);
    expect(attested.statusCode, attested.body).toBe(200);
    expect(attested.json().creditsClaimed).toBe(1.75);
    expect((await certificatesOf(cookie))[0]!.credit!.creditsClaimed).toBe(1.75);
  });

  it("refuses a licence made of zero-width spaces or other invisible characters, so no certificate prints an invisible licence", async () => {
    const { attest, cookie } = await readyToAttest({ licenceRequired: true });
    expect((await attest(2)).statusCode).toBe(200);
    // The course waits for the licence.
    expect(await certificatesOf(cookie)).toEqual([]);
    await settleBackgroundWork(ctx);
    const before = await snapshotAll(ctx);
    const put = (licence: object) =>
      call(ctx, "PUT", "/api/profile/licence", {
        cookie,
        payload: { licenceType: "RN", licenceNumber: "", licenceState: "", npn: "", ...licence },
      });
    for (const [licence, path] of [
      [{ licenceNumber: "\u200b\u200b\u200b" }, "licenceNumber"],
      [{ licenceNumber: "\u200c\u200d\u2060\ufeff\u00ad" }, "licenceNumber"],
      [{ licenceNumber: "\u3164\u115f\u2800" }, "licenceNumber"],
      [{ licenceNumber: " \u200b \u200e " }, "licenceNumber"],
      [{ licenceType: "\u200b", licenceNumber: "12345" }, "licenceType"],
      [{ licenceType: "", npn: "\u200b\u200b" }, "npn"],
      [{ licenceState: "\u2061\u2062" }, "licenceState"],
      // A licence type whose number has a known form: an NPI is 10 digits.
      [{ licenceType: "NPI", licenceNumber: "12345\u200b6789" }, "licenceNumber"],
    ] as const) {
      const refused = await put(licence);
      expectRefusal(refused, 400, JSON.stringify(licence));
      expect(refused.json()).toMatchObject({ code: "validation.invalid_body", path });
    }
    await expectUnchanged(ctx, before, "after invisible licences");
    expect(await certificatesOf(cookie)).toEqual([]);

    // A visible licence is stored normalised: no format characters, full-width digits as digits.
    const saved = await put({
      licenceNumber: "RN\u200b-１２３４",
      licenceState: "OR",
      npn: "８８１２３４５",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ licenceNumber: "RN-1234", npn: "8812345" });
    expect((await certificatesOf(cookie))[0]!.credit!.licence).toMatchObject({
      licenceType: "RN",
      licenceNumber: "RN-1234",
    });
  });

  it("masks the licence number and NPN on the public verification page; only the learner and administrators see them whole", async () => {
    const { attest, cookie, adminCookie, url } = await readyToAttest({ licenceRequired: true });
    const licence = {
      licenceType: "MD",
      licenceNumber: "A-12345678",
      licenceState: "CA",
      npn: "88123456",
    };
    expect(
      (await call(ctx, "PUT", "/api/profile/licence", { cookie, payload: licence })).statusCode,
    ).toBe(200);
    expect((await attest(2)).statusCode).toBe(200);
    const [mine] = await certificatesOf(cookie);
    expect(mine!.credit!.licence).toEqual(licence);

    await settleBackgroundWork(ctx);
    const before = await snapshotAll(ctx);
    const verified = await call(ctx, "GET", `/api/certificates/verify/${mine!.code}`);
    expect(verified.statusCode).toBe(200);
    // The web client's verification page reads the masked answer with the contract's schema.
    const shown = verifyCertificateResponseSchema.parse(verified.json()).certificate;
    expect(shown.credit!.licence).toEqual({
      licenceType: "MD",
      licenceNumber: "•••• 5678",
      licenceState: "CA",
      npn: "•••• 3456",
    });
    for (const secret of ["A-12345678", "12345678", "88123456", "123456"]) {
      expect(verified.body).not.toContain(secret);
    }
    await expectUnchanged(ctx, before, "after verification");

    // The learner's own certificate and the administrator's credit report keep them whole.
    expect((await certificatesOf(cookie))[0]!.credit!.licence).toEqual(licence);
    const report = await call(ctx, "GET", url("credit-report"), { cookie: adminCookie });
    const [header, row] = parseCsv(report.body.replace(/^\ufeff/, ""));
    expect(row![header!.indexOf("Licence number")]).toBe("A-12345678");
    expect(row![header!.indexOf("NPN")]).toBe("88123456");
  });
});
