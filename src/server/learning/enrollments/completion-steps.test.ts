import { beforeEach, describe, expect, it } from "vitest";
import { CREDIT_MESSAGES } from "../../../contract";
import { useStepHarness } from "../../testing/step-harness";
import { defineStep } from "./completion-steps";

/**
 * A step no feature has: a course survey, kept in memory. It takes the evaluation's place
 * in the fixed order (the keys come from the contract) and reaches completion only through
 * the one interface and this file's own wiring.
 */
const surveyCourses = new Set<string>();
const surveyed = new Map<string, Date>();
const surveyStep = defineStep<{ asked: boolean }>({
  key: "evaluation",
  load: async (_db, courseId) => ({ asked: surveyCourses.has(courseId) }),
  record: {
    isRequired: (settings) => settings.asked,
    doneAt: async (_tx, enrollment) => surveyed.get(enrollment.id) ?? null,
  },
});

describe("a step of completion plugged in through its wiring alone", () => {
  const h = useStepHarness([surveyStep]);

  beforeEach(() => {
    surveyCourses.clear();
    surveyed.clear();
  });

  /** The learner answers the survey, in the unit of work of the evaluation's place. */
  const takeSurvey = (userId: string, courseId: string) =>
    h.enrollments.takeStep({
      userId,
      courseId,
      step: "evaluation",
      async write(unit) {
        await unit.assertInOrder();
        surveyed.set(unit.enrollment.id, unit.now);
      },
    });

  async function setup(asked: boolean) {
    const course = await h.course({ modules: 2 });
    if (asked) surveyCourses.add(course.id);
    const learner = await h.enrolledLearner(course);
    return { course, learner };
  }

  it("holds completion and the certificate until the survey is taken, and names it next", async () => {
    const { course, learner } = await setup(true);
    await h.completeModules(learner.id, course);

    const standing = await h.expectHeldAt(learner.id, course.id, "evaluation");
    expect(standing.steps).toEqual([
      expect.objectContaining({ key: "modules", required: true, done: true }),
      { key: "evaluation", label: "Evaluation", required: true, done: false, doneAt: null },
      expect.objectContaining({ key: "certificate", required: true, done: false }),
    ]);
  });

  it("refuses the survey before the modules, and a later step before the survey", async () => {
    const { course, learner } = await setup(true);
    await expect(takeSurvey(learner.id, course.id)).rejects.toMatchObject({
      statusCode: 409,
      message: CREDIT_MESSAGES.outOfOrder("modules"),
    });
    expect(surveyed.size).toBe(0);

    await h.completeModules(learner.id, course);
    let attested = false;
    const attest = h.enrollments.takeStep({
      userId: learner.id,
      courseId: course.id,
      step: "attestation",
      async write(unit) {
        await unit.assertInOrder();
        attested = true;
      },
    });
    await expect(attest).rejects.toMatchObject({
      statusCode: 409,
      message: CREDIT_MESSAGES.outOfOrder("evaluation"),
    });
    expect(attested).toBe(false);
    await h.expectHeldAt(learner.id, course.id, "evaluation");
  });

  it("completes the course and issues exactly one certificate once the survey is taken", async () => {
    const { course, learner } = await setup(true);
    await h.completeModules(learner.id, course);
    await takeSurvey(learner.id, course.id);

    await h.expectCompleted(learner.id, course.id);
    const standing = await h.enrollments.completion(learner.id, course.id);
    const survey = standing.steps.find((s) => s.key === "evaluation");
    expect(survey).toMatchObject({ required: true, done: true });
    expect(survey?.doneAt).not.toBeNull();

    // Taking it again settles nothing new: still one certificate, one completion.
    await takeSurvey(learner.id, course.id);
    await h.expectCompleted(learner.id, course.id);
    const types = await h.auditTypes();
    expect(types.filter((t) => t === "course.completed")).toHaveLength(1);
    expect(types.filter((t) => t === "certificate.issued")).toHaveLength(1);
  });

  it("lets a course that does not ask for the survey complete with its modules alone", async () => {
    const { course, learner } = await setup(false);
    await h.completeModules(learner.id, course);

    await h.expectCompleted(learner.id, course.id);
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps.find((s) => s.key === "evaluation")).toMatchObject({
      required: false,
      done: false,
    });
  });
});

/**
 * A step that also decides by another step's settings reads them through `shared`: the
 * loader runs once per course, however many steps ask for it.
 */
let surveyLoads = 0;
const loadSurveyAsked = async (_db: unknown, courseId: string) => {
  surveyLoads += 1;
  return { asked: surveyCourses.has(courseId) };
};
const askingStep = defineStep({ ...surveyStep, load: loadSurveyAsked });
const certificateStep = defineStep<{ asked: boolean }>({
  key: "certificate",
  load: (_db, _courseId, shared) => shared(loadSurveyAsked),
  canIssue: async () => true,
});

describe("settings one step shares with another", () => {
  const h = useStepHarness([askingStep, certificateStep]);

  it("are loaded once per course for every step that reads them", async () => {
    const course = await h.course({ modules: 1 });
    surveyCourses.add(course.id);
    const learner = await h.enrolledLearner(course);
    surveyLoads = 0;
    const standing = await h.enrollments.completion(learner.id, course.id);
    expect(standing.steps.find((s) => s.key === "evaluation")?.required).toBe(true);
    expect(surveyLoads).toBe(1);
  });
});
