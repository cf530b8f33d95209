import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LEARNER_PLANS } from "../../scripts/demo/learners";
import { DEMO_ADMIN, DEMO_ALREADY_SEEDED, fillDemo } from "../../scripts/seed-demo";
import type {
  Course,
  CreditCatalogue,
  LearnerSummary,
  Organisation,
  SetupChecklist,
  Transcript,
} from "../contract";
import { call, signInAs } from "./testing/learning";
import { TEST_ADMIN_KEY, useTestApp } from "./testing/test-app";

/**
 * `npm run demo` (scripts/seed-demo.ts) on a real database: the accredited provider it shows,
 * read back through the API as its administrator sees it, and its refusal to fill a portal twice.
 */
describe("the demo", () => {
  // The demo's learners play videos through: the portal's clock moves on as they watch.
  let ahead = 0;
  const ctx = useTestApp({}, { clock: () => new Date(Date.now() + ahead) });

  it("is an accredited provider with three published courses and learners at every stage, made once", async () => {
    const fill = () =>
      fillDemo(ctx.app, {
        adminKey: TEST_ADMIN_KEY,
        mediaDir: join(ctx.dataDir, "demo-media"),
        watchAhead: (ms) => {
          ahead += ms;
        },
        log: () => {},
      });
    const result = await fill();
    const admin = await signInAs(ctx, DEMO_ADMIN);
    const read = async <T>(url: string) => {
      const response = await call(ctx, "GET", url, { cookie: admin });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
      return response.json() as T;
    };

    const organisation = await read<Organisation>("/api/organisation");
    expect(organisation).toMatchObject({ name: "Credo Learning", contactEmail: "ce@credo.test" });
    expect(organisation.logoUrl).not.toBeNull();

    const catalogue = await read<CreditCatalogue>("/api/credit-catalogue");
    expect(catalogue.bodies.map((b) => [b.name, b.minutesPerHour, b.types]).sort()).toEqual([
      ["ACCME", 60, 1],
      ["ANCC", 60, 1],
      ["NASBA", 50, 1],
    ]);
    expect(
      catalogue.types.map((t) => ({
        name: t.name,
        profession: t.profession,
        fieldsOfStudyRequired: t.fieldsOfStudyRequired,
        needsReview: t.needsReview,
        courses: t.courses,
      })),
    ).toEqual(
      expect.arrayContaining([
        {
          name: "contact hours",
          profession: "Nursing",
          fieldsOfStudyRequired: false,
          needsReview: false,
          courses: 2,
        },
        {
          name: "CPE credits",
          profession: "Accountancy",
          fieldsOfStudyRequired: true,
          needsReview: false,
          courses: 1,
        },
        {
          name: "AMA PRA Category 1 Credits™",
          profession: "Medicine",
          fieldsOfStudyRequired: false,
          needsReview: false,
          courses: 1,
        },
      ]),
    );
    expect(catalogue.types).toHaveLength(3);

    const courses = await read<Course[]>("/api/courses");
    expect(
      courses.map((c) => [c.title, c.isPublished, c.creditTypes.map((t) => t.name).sort()]).sort(),
    ).toEqual([
      [
        "Opioid Prescribing: Safer Pain Care",
        true,
        ["AMA PRA Category 1 Credits™", "contact hours"],
      ],
      ["Professional Ethics for CPAs", true, ["CPE credits"]],
      ["Safe Medication Administration", true, ["contact hours"]],
    ]);

    // The first administrator's checklist is done: the dashboard no longer shows it.
    const checklist = await read<SetupChecklist>("/api/admin/setup-checklist");
    expect(checklist.steps.every((s) => s.done)).toBe(true);

    const learners = await read<LearnerSummary[]>("/api/users/learners?limit=100");
    const byEmail = new Map(learners.map((l) => [l.email, l]));
    expect(byEmail.get(result.invited)).toMatchObject({ passwordSetup: false, status: "active" });
    expect(byEmail.get(result.restricted)?.status).toBe("restricted");

    const titles = new Map(courses.map((c) => [c.id, c.title]));
    for (const plan of LEARNER_PLANS) {
      const transcript = await read<Transcript>(
        `/api/learners/${byEmail.get(plan.email)!.id}/transcript`,
      );
      const stage = result.stages.find((s) => s.email === plan.email && s.stage === plan.stage)!;
      const entry = transcript.entries.find((e) => titles.get(e.courseId ?? "") === stage.course);
      const what = `${plan.email} in ${stage.course}: ${plan.stage}`;
      expect(entry, what).toBeDefined();
      if (plan.claim) {
        expect(entry!.status, what).toBe("completed");
        expect(entry!.certificate?.status, what).toBe(plan.revoke ? "revoked" : "valid");
        // A revoked certificate's credit no longer counts in the learner's totals.
        expect(transcript.totals.credits, what).toHaveLength(plan.revoke ? 0 : 1);
      } else {
        expect(entry!.status, what).toBe(plan.modules === 0 ? "not-started" : "in-progress");
        expect(entry!.certificate, what).toBeNull();
      }
      const passed = stage.scores.some((score) => score >= 70);
      expect(entry!.examFailed, what).toBe(stage.scores.length > 0 && !passed);
      if (passed && !plan.claim) expect(entry!.nextStep, what).toBe("evaluation");
    }

    // A second run finds the demo there and says so, changing nothing.
    await expect(fill()).rejects.toThrow(DEMO_ALREADY_SEEDED);
    expect(await read<Course[]>("/api/courses")).toHaveLength(3);
  });
});
