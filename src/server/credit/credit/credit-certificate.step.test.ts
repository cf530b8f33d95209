import { describe, expect, it } from "vitest";
import { DEFAULT_CREDIT_SETTINGS, type LicenceEntry } from "../../../contract";
import { HARNESS_ADMIN, useStepHarness } from "../../testing/step-harness";
import { creditCertificateStep } from "./credit.service";

const LICENCE: LicenceEntry = {
  licenceType: "RN",
  licenceNumber: "RN-204518",
  licenceState: "OR",
};

describe("the credit-ready certificate as the only step of completion", () => {
  const h = useStepHarness([creditCertificateStep]);

  async function setup(licenceRequired: boolean) {
    const draft = await h.draftCourse({ modules: 2 });
    await h.courses.saveCredit(
      draft.id,
      {
        bodies: [{ name: "ANCC", providerNumber: "P-0421" }],
        types: [
          {
            name: "contact hours",
            amount: 1,
            accreditingBody: "ANCC",
            accreditationStatement: "",
            designationStatement: "",
            claimStep: null,
            licenceRequired,
          },
        ],
      },
      HARNESS_ADMIN,
    );
    const course = await h.publish(draft.id);
    const { signatureId: _, ...settings } = DEFAULT_CREDIT_SETTINGS;
    await h.credit.saveCreditSettings(
      course.id,
      { ...settings, sponsorName: "Credo Health Education" },
      HARNESS_ADMIN,
    );
    const learner = await h.enrolledLearner(course);
    await h.completeModules(learner.id, course);
    return { course, learner };
  }

  it("holds the certificate while the licence the course asks for is missing", async () => {
    const { course, learner } = await setup(true);
    const standing = await h.expectHeldAt(learner.id, course.id, "certificate");
    expect(standing.steps).toMatchObject([{ key: "modules", done: true }, { key: "certificate" }]);

    // Other identifiers (an NPI, a birth date) are not a licence.
    const viewer = { id: learner.id, role: "learner" } as const;
    await h.identifiers.save(viewer, { npi: "1234567893", birthMonth: 2, birthDay: 29 });
    await h.expectHeldAt(learner.id, course.id, "certificate");

    // Entering it completes the course that waited for it alone.
    await h.identifiers.save(viewer, { licences: [LICENCE] });
    const certificate = await h.expectCompleted(learner.id, course.id);
    expect(certificate.credit).toMatchObject({
      sponsorName: "Credo Health Education",
      licence: { ...LICENCE, npn: "" },
    });
    // Without an attestation the course awards the type it offers, whole.
    expect(certificate.credits).toMatchObject([
      { name: "contact hours", amount: 1, accreditingBody: "ANCC", providerNumber: "P-0421" },
    ]);
    expect(certificate).toMatchObject({ creditHours: 1, creditType: "contact hours" });
  });

  it("issues at once, printing the credit settings, when no licence is asked for", async () => {
    const { course, learner } = await setup(false);
    const certificate = await h.expectCompleted(learner.id, course.id);
    expect(certificate.credit).toMatchObject({
      sponsorName: "Credo Health Education",
      licence: null,
    });
  });
});
