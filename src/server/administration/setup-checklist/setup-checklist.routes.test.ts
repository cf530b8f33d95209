import { describe, expect, it } from "vitest";
import type { SetupChecklist } from "../../../contract";
import {
  buildPublishedCourse,
  call,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";

describe("the dashboard's setup checklist", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  const signedInAdmin = async () => signInAs(ctx, await quickAdmin(ctx));
  const checklistOf = async (cookie: string) => {
    const response = await call(ctx, "GET", "/api/admin/setup-checklist", { cookie });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as SetupChecklist;
  };
  const doneSteps = (checklist: SetupChecklist) =>
    checklist.steps.filter((s) => s.done).map((s) => s.step);

  it("ticks each step from what the portal holds: a name, a confirmed credit type, a published course", async () => {
    const admin = await signedInAdmin();
    expect(await checklistOf(admin)).toEqual({
      steps: [
        { step: "organisation", done: false },
        { step: "catalogue", done: false },
        { step: "course", done: false },
      ],
      dismissed: false,
    });

    const saved = await call(ctx, "PUT", "/api/admin/organisation", {
      cookie: admin,
      payload: {
        name: "Credo Health Education",
        logoPath: null,
        address: "",
        contactEmail: "",
        dateFormat: "month-day-year",
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(doneSteps(await checklistOf(admin))).toEqual(["organisation"]);

    // A draft is not yet a course learners can take.
    const video = await videoPath(admin);
    const draft = await buildPublishedCourse(ctx, admin, { video, draft: true });
    expect(doneSteps(await checklistOf(admin))).toEqual(["organisation"]);

    // Credit a course named in its own words waits in the catalogue for review: not done yet.
    const offered = await call(ctx, "PUT", `/api/courses/${draft.id}/credit`, {
      cookie: admin,
      payload: {
        bodies: [{ name: "ANCC", providerNumber: "P-0421" }],
        types: [
          {
            name: "contact hours",
            amount: 1,
            accreditingBody: "ANCC",
            designationStatement: "This activity is awarded 1 ANCC contact hour.",
            claimStep: null,
          },
        ],
      },
    });
    expect(offered.statusCode, offered.body).toBe(200);
    const catalogue = (await call(ctx, "GET", "/api/credit-catalogue", { cookie: admin })).json();
    const made = catalogue.types[0] as { id: string; needsReview: boolean };
    expect(made.needsReview).toBe(true);
    expect(doneSteps(await checklistOf(admin))).toEqual(["organisation"]);
    const confirmed = await call(ctx, "POST", `/api/credit-catalogue/types/${made.id}/confirm`, {
      cookie: admin,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(doneSteps(await checklistOf(admin))).toEqual(["organisation", "catalogue"]);

    await buildPublishedCourse(ctx, admin, { video });
    expect(doneSteps(await checklistOf(admin))).toEqual(["organisation", "catalogue", "course"]);
  });

  it("is dismissed by each administrator for themselves, once, and only administrators see it", async () => {
    const first = await signedInAdmin();
    const second = await signedInAdmin();

    for (let i = 0; i < 2; i++) {
      const dismissed = await call(ctx, "POST", "/api/admin/setup-checklist/dismiss", {
        cookie: first,
      });
      expect(dismissed.statusCode, dismissed.body).toBe(204);
    }
    expect((await checklistOf(first)).dismissed).toBe(true);
    expect((await checklistOf(second)).dismissed).toBe(false);

    const learner = await signInAs(ctx, await quickLearner(ctx));
    for (const [method, url] of [
      ["GET", "/api/admin/setup-checklist"],
      ["POST", "/api/admin/setup-checklist/dismiss"],
    ] as const) {
      expect((await call(ctx, method, url, { cookie: learner })).statusCode).toBe(403);
      expect((await call(ctx, method, url)).statusCode).toBe(401);
    }
    expect((await checklistOf(second)).dismissed).toBe(false);
  });
});
