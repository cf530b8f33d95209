import { describe, expect, it } from "vitest";
import { CREDIT_MESSAGES } from "../../../contract";
import { useStepHarness } from "../../testing/step-harness";
import { createAttestationsRepository } from "./attestations.repository";
import { attestationStep } from "./attestations.service";

const STATEMENT = "I attest that I personally completed this activity.";
const ORIGIN = { ip: "203.0.113.7", userAgent: "Test Browser" };

describe("the attestation as the only step of completion", () => {
  const h = useStepHarness([attestationStep]);

  async function setup(attestationRequired: boolean) {
    const course = await h.course({ modules: 2, creditHours: 1.5 });
    await h.saveActivity(course.id, { attestationRequired, attestationText: STATEMENT });
    const learner = await h.enrolledLearner(course);
    return { course, learner };
  }

  /** The learner signs the statement in the unit of work, stored as the attestations feature keeps it. */
  const attest = (learner: { id: string; name: string; email: string }, courseId: string) =>
    h.enrollments.takeStep({
      userId: learner.id,
      courseId,
      step: "attestation",
      async write({ tx, enrollment, context, now, assertInOrder }) {
        await assertInOrder();
        await createAttestationsRepository(tx).insertAttestation({
          enrollmentId: enrollment.id,
          userId: learner.id,
          courseId,
          learnerName: learner.name,
          learnerEmail: learner.email,
          courseTitle: context.course.title,
          statement: STATEMENT,
          creditsClaimed: context.course.creditTypes[0]!.amount,
          designatedCredits: context.course.creditTypes[0]!.amount,
          ...ORIGIN,
          attestedAt: now,
          retainUntil: new Date(now.getTime() + 365 * 86_400_000),
        });
      },
    });

  it("holds completion after the modules until the learner attests", async () => {
    const { course, learner } = await setup(true);
    await expect(attest(learner, course.id)).rejects.toMatchObject({
      statusCode: 409,
      message: CREDIT_MESSAGES.outOfOrder("modules"),
    });

    await h.completeModules(learner.id, course);
    await h.expectHeldAt(learner.id, course.id, "attestation");

    await attest(learner, course.id);
    await h.expectCompleted(learner.id, course.id);
  });

  it("asks nothing of a course without an attestation", async () => {
    const { course, learner } = await setup(false);
    await h.completeModules(learner.id, course);
    await h.expectCompleted(learner.id, course.id);
  });

  // Wired alone, the attestation still reads the course's activity (through its own step's
  // settings), so it finds the statement the course asks the learner to affirm.
  it("takes the learner's attestation through the attestations feature", async () => {
    const { course, learner } = await setup(true);
    await h.completeModules(learner.id, course);
    const body = { statement: STATEMENT, creditsClaimed: null };
    await h.attestations.attest(learner.id, course.id, body, ORIGIN);
    await h.expectCompleted(learner.id, course.id);
  });
});
