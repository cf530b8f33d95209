import { describe, expect, it } from "vitest";
import {
  type Certificate,
  CREDIT_MESSAGES,
  type PublicCertificate,
  type Transcript,
} from "../../../contract";
import { answersFor, buildExamCourse } from "../../testing/assessments";
import {
  accme,
  creditOffer,
  creditType,
  STATEMENT,
  useCreditClaim,
} from "../../testing/credit-claim";
import { parseCsv } from "../../testing/csv";
import { call, completeViaApi, enrollViaApi, quickLearner, signInAs } from "../../testing/learning";
import { pdfText } from "../../testing/pdf-text";

const JOINT = "Joint Accreditation";

/**
 * A jointly accredited activity: AMA PRA Category 1 Credit™ and nurses' contact hours under
 * one body and provider number, NASBA CPE credits under another.
 */
const OFFER = creditOffer(
  [
    creditType({
      name: "AMA PRA Category 1 Credit™",
      amount: 1,
      accreditingBody: JOINT,
      claimStep: null,
    }),
    creditType({
      name: "contact hours",
      amount: 1.5,
      accreditingBody: JOINT,
      claimStep: null,
      licenceRequired: true,
      accreditationStatement:
        "Credo Health is jointly accredited to provide CE for the healthcare team.",
      designationStatement:
        "Credo Health designates this activity for a maximum of 1.5 ANCC contact hours.",
    }),
    creditType({
      name: "CPE credits",
      amount: 2,
      accreditingBody: "NASBA",
      claimStep: 0.5,
      accreditationStatement: "Credo Health is registered with NASBA as a sponsor of CPE.",
      designationStatement: "Recommended for 2 CPE credits in Ethics.",
    }),
  ],
  { [JOINT]: "JA4008123", NASBA: "112233" },
);

/** Amounts of different types added together: what must never be printed. */
const CROSS_TOTALS = ["2.5", "3.5", "4.5"];

describe("several credit types, each learner claiming their own", () => {
  const { ctx, video, setup, certificatesOf } = useCreditClaim();

  it("prints, reports and totals exactly the credit each learner claimed, never adding types", async () => {
    const { adminCookie, course, learner, cookie, url, types } = await setup(
      accme({ evaluationRequired: false, acknowledgementRequired: false }),
      2,
      OFFER,
    );
    const [ama, contact, cpe] = types.map((t) => t.id) as [string, string, string];
    // The nurse practitioner (the setup's learner) and an accountant.
    const nurse = { ...learner, cookie };
    const accountantUser = await quickLearner(ctx, { name: "Bo Accountant" });
    const accountant = { ...accountantUser, cookie: await signInAs(ctx, accountantUser) };
    await enrollViaApi(ctx, adminCookie, accountant.id, course.id);
    for (const who of [nurse, accountant]) await completeViaApi(ctx, who.cookie, who.id, course, 2);

    const attest = (who: { cookie: string }, payload: object) =>
      call(ctx, "POST", url("attest"), {
        cookie: who.cookie,
        payload: { statement: STATEMENT, ...payload },
      });

    // Claims are held to each type's rules, and refused as sent.
    for (const [payload, code, message] of [
      [{ creditsClaimed: 1 }, "attestation.claim_required", CREDIT_MESSAGES.claimNeeded],
      [{ claims: [] }, "attestation.claim_required", CREDIT_MESSAGES.claimNeeded],
      [
        { claims: [{ creditTypeId: "not-offered", amount: null }] },
        "attestation.unknown_credit_type",
        CREDIT_MESSAGES.unknownCreditType,
      ],
      [
        { claims: [{ creditTypeId: cpe, amount: 2.5 }] },
        "attestation.claim_too_high",
        "You can claim at most 2 CPE credits.",
      ],
      [
        { claims: [{ creditTypeId: cpe, amount: 1.25 }] },
        "attestation.claim_off_step",
        "Claim CPE credits in steps of 0.5.",
      ],
      [
        { claims: [{ creditTypeId: cpe, amount: null }] },
        "attestation.claim_required",
        CREDIT_MESSAGES.claimNeeded,
      ],
      [
        { claims: [{ creditTypeId: ama, amount: 0.5 }] },
        "attestation.no_partial_credit",
        CREDIT_MESSAGES.noPartialCredit,
      ],
      [
        {
          claims: [
            { creditTypeId: ama, amount: null },
            { creditTypeId: ama, amount: null },
          ],
        },
        "validation.invalid_body",
        "Claim each credit type once",
      ],
    ] as const) {
      const refused = await attest(accountant, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json()).toMatchObject({ code, message });
    }

    const nurseAttested = await attest(nurse, {
      claims: [
        { creditTypeId: contact, amount: null },
        { creditTypeId: ama, amount: null },
      ],
    });
    expect(nurseAttested.statusCode, nurseAttested.body).toBe(200);
    // In the course's order, each amount as printed; no single amount for two types.
    expect(nurseAttested.json()).toMatchObject({
      creditsClaimed: null,
      credits: [
        { name: "AMA PRA Category 1 Credit™", amount: 1, text: "1 AMA PRA Category 1 Credit™" },
        { name: "contact hours", amount: 1.5, text: "1.5 contact hours" },
      ],
    });
    const accountantAttested = await attest(accountant, {
      claims: [{ creditTypeId: cpe, amount: 1.5 }],
    });
    expect(accountantAttested.json()).toMatchObject({
      creditsClaimed: 1.5,
      credits: [{ name: "CPE credits", amount: 1.5, text: "1.5 CPE credits" }],
    });

    // Contact hours ask for the nurse's licence; CPE credits do not ask the accountant's.
    expect(await certificatesOf(nurse.cookie)).toEqual([]);
    const [accountantCertificate] = await certificatesOf(accountant.cookie);
    const licence = { licenceType: "RN", licenceNumber: "RN-204518", licenceState: "OR", npn: "" };
    await call(ctx, "PUT", "/api/profile/licence", { cookie: nurse.cookie, payload: licence });
    const [nurseCertificate] = await certificatesOf(nurse.cookie);

    // The certificates: what each claimed, and its body's provider number.
    const jointCredit = { accreditingBody: JOINT, providerNumber: "JA4008123" };
    expect(nurseCertificate).toMatchObject({
      credits: [
        {
          name: "AMA PRA Category 1 Credit™",
          amount: 1,
          text: "1 AMA PRA Category 1 Credit™",
          ...jointCredit,
        },
        {
          name: "contact hours",
          amount: 1.5,
          text: "1.5 contact hours",
          ...jointCredit,
          designationStatement: OFFER.types[1]!.designationStatement,
        },
      ],
      // Two types: no single figure stands for them.
      creditHours: null,
      creditType: null,
    });
    expect(accountantCertificate).toMatchObject({
      credits: [
        {
          name: "CPE credits",
          amount: 1.5,
          text: "1.5 CPE credits",
          accreditingBody: "NASBA",
          providerNumber: "112233",
          accreditationStatement: OFFER.types[2]!.accreditationStatement,
        },
      ],
      creditHours: 1.5,
      creditType: "CPE credits",
      accreditingBody: "NASBA",
      providerNumber: "112233",
    });
    const verified = (
      await call(ctx, "GET", `/api/certificates/verify/${nurseCertificate!.code}`)
    ).json().certificate as PublicCertificate;
    expect(verified.credits.map((c) => c.text)).toEqual([
      "1 AMA PRA Category 1 Credit™",
      "1.5 contact hours",
    ]);

    // The PDF certificates print each learner's own credit, and no other type.
    const pdf = async (c: Certificate, cookie: string) => {
      const answer = await call(ctx, "GET", `/api/certificates/${c.id}/pdf`, { cookie });
      expect(answer.statusCode).toBe(200);
      return (await pdfText(answer.rawPayload)).replace(/\s+/g, " ");
    };
    const nursePdf = await pdf(nurseCertificate!, nurse.cookie);
    for (const expected of [
      "1 AMA PRA Category 1 Credit™",
      "1.5 contact hours",
      JOINT,
      "JA4008123",
    ]) {
      expect(nursePdf).toContain(expected);
    }
    for (const absent of ["CPE", "NASBA", "credit hour"]) expect(nursePdf).not.toContain(absent);
    const accountantPdf = await pdf(accountantCertificate!, accountant.cookie);
    for (const expected of ["1.5 CPE credits", "NASBA", "112233"]) {
      expect(accountantPdf).toContain(expected);
    }
    for (const absent of ["contact hour", "AMA PRA", "JA4008123"]) {
      expect(accountantPdf).not.toContain(absent);
    }

    // Transcripts: the credit earned, one total per type.
    const transcript = async (who: { id: string; cookie: string }) =>
      (
        await call(ctx, "GET", `/api/learners/${who.id}/transcript`, { cookie: who.cookie })
      ).json() as Transcript;
    const nurseTranscript = await transcript(nurse);
    expect(nurseTranscript.totals.credits).toEqual([
      {
        catalogueTypeId: types[0]!.catalogueTypeId,
        name: "AMA PRA Category 1 Credit™",
        amount: 1,
        text: "1 AMA PRA Category 1 Credit™",
      },
      {
        catalogueTypeId: types[1]!.catalogueTypeId,
        name: "contact hours",
        amount: 1.5,
        text: "1.5 contact hours",
      },
    ]);
    expect(nurseTranscript.entries[0]!.credits.map((c) => c.text)).toEqual([
      "1 AMA PRA Category 1 Credit™",
      "1.5 contact hours",
    ]);
    expect(Object.keys(nurseTranscript.totals)).not.toContain("creditHours");
    const accountantTranscript = await transcript(accountant);
    expect(accountantTranscript.totals.credits).toEqual([
      {
        catalogueTypeId: types[2]!.catalogueTypeId,
        name: "CPE credits",
        amount: 1.5,
        text: "1.5 CPE credits",
      },
    ]);

    const csv = async (who: { id: string; cookie: string }) => {
      const answer = await call(ctx, "GET", `/api/learners/${who.id}/transcript.csv`, {
        cookie: who.cookie,
      });
      return parseCsv(answer.body.replace(/^\ufeff/, ""));
    };
    const nurseCsv = await csv(nurse);
    expect(nurseCsv.filter((r) => r[0] === "Credit earned")).toEqual([
      ["Credit earned", "AMA PRA Category 1 Credit™", "1"],
      ["Credit earned", "contact hours", "1.5"],
    ]);
    const header = nurseCsv.find((r) => r[0] === "Course")!;
    const row = nurseCsv.find((r) => r[0] === course.title)!;
    expect(row[header.indexOf("Credit")]).toBe("1 AMA PRA Category 1 Credit™; 1.5 contact hours");
    expect(row[header.indexOf("Accrediting body")]).toBe(JOINT);
    expect(row[header.indexOf("Provider number")]).toBe("JA4008123");
    const accountantCsv = await csv(accountant);
    expect(accountantCsv.filter((r) => r[0] === "Credit earned")).toEqual([
      ["Credit earned", "CPE credits", "1.5"],
    ]);

    // The credit report: one row per learner and type claimed.
    const report = await call(ctx, "GET", url("credit-report"), { cookie: adminCookie });
    const [reportHeader, ...rows] = parseCsv(report.body.replace(/^\ufeff/, ""));
    const column = (name: string) => reportHeader!.indexOf(name);
    expect(
      // The certificates share the credit clock's time: read the rows by learner, then type.
      rows
        .map((r) => [
          r[column("Learner name")],
          r[column("Credit type")],
          r[column("Credits claimed")],
          r[column("Accrediting body")],
          r[column("Provider number")],
          r[column("Licence number")],
        ])
        .sort((a, b) => a.join().localeCompare(b.join())),
    ).toEqual([
      ["Bo Accountant", "CPE credits", "1.5", "NASBA", "112233", ""],
      [learner.name, "AMA PRA Category 1 Credit™", "1", JOINT, "JA4008123", "RN-204518"],
      [learner.name, "contact hours", "1.5", JOINT, "JA4008123", "RN-204518"],
    ]);

    // No amount of one type is ever added to another's, in any of these.
    const transcriptPdf = await call(ctx, "GET", `/api/learners/${nurse.id}/transcript.pdf`, {
      cookie: nurse.cookie,
    });
    const transcriptText = (await pdfText(transcriptPdf.rawPayload)).replace(/\s+/g, " ");
    expect(transcriptText).toContain("1 AMA PRA Category 1 Credit™ · 1.5 contact hours");
    for (const text of [
      JSON.stringify(nurseTranscript),
      JSON.stringify(nurseCsv),
      JSON.stringify(nurseCertificate),
      transcriptText,
      nursePdf,
      report.body,
    ]) {
      for (const total of CROSS_TOTALS)
        expect(text).not.toMatch(
          new RegExp(`\\b${total.replace(".", "\\.")} (credit|hour|contact|CPE|AMA)`, "i"),
        );
    }
  });

  it("shows no credit for a learner who failed the exam, and says the exam was failed", async () => {
    const { adminCookie, course, questions, learner, cookie } = await buildExamCourse(ctx, video, {
      settings: { maxAttempts: 1, passMark: 80 },
    });
    const offered = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: creditOffer([
        creditType({ name: "CPE credits", amount: 1, accreditingBody: "NASBA", claimStep: null }),
      ]),
    });
    expect(offered.statusCode, offered.body).toBe(200);
    const attempt = (
      await call(ctx, "POST", `/api/courses/${course.id}/exam/attempts`, { cookie })
    ).json() as { id: string; questions: { id: string; options: { id: string }[] }[] };
    const failed = await call(ctx, "POST", `/api/exam-attempts/${attempt.id}/submit`, {
      cookie,
      payload: { answers: answersFor(attempt.questions, questions, () => false) },
    });
    expect(failed.json()).toMatchObject({ passed: false });

    const transcript = (
      await call(ctx, "GET", `/api/learners/${learner.id}/transcript`, { cookie: adminCookie })
    ).json() as Transcript;
    expect(transcript.entries).toMatchObject([
      {
        status: "in-progress",
        progress: 100,
        examFailed: true,
        nextStep: "exam",
        credits: [],
        creditHours: null,
        creditType: null,
        certificate: null,
      },
    ]);
    expect(transcript.totals.credits).toEqual([]);
  });
});
