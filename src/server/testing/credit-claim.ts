import { expect } from "vitest";
import {
  type ActivityInput,
  type Certificate,
  type Completion,
  type CourseCreditInput,
  type CreditTypeBody,
  DEFAULT_ACTIVITY,
} from "../../contract";
import {
  buildPublishedCourse,
  call,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "./learning";
import { useTestApp } from "./test-app";

export const STATEMENT = "I attest that I personally completed this activity.";

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** An ACCME-style activity: acknowledgement, evaluation, attestation with 0.25 steps. */
export const accme = (extra: Partial<ActivityInput> = {}): ActivityInput => ({
  ...DEFAULT_ACTIVITY,
  objectives: ["Recognise the signs", "Choose the treatment"],
  faculty: [{ name: "Dr. Ada Byron", role: "Course director", disclosure: "Nothing to disclose" }],
  disclosureStatement:
    "Dr. Byron: consultant, Acme Pharma. All relevant financial relationships have been mitigated.",
  releaseDate: "2026-01-01",
  reviewDate: "2026-06-01",
  expirationDate: "2099-12-31",
  acknowledgementRequired: true,
  evaluationRequired: true,
  attestationRequired: true,
  attestationText: STATEMENT,
  ...extra,
});

const AMA_DESIGNATION =
  "Credo Medical designates this enduring material for a maximum of 2 AMA PRA Category 1 Credits™.";

/** One credit type of an accredited course; AMA PRA Category 1 Credit™ unless told. */
export const creditType = (extra: Partial<CreditTypeBody> = {}): CreditTypeBody => ({
  name: "AMA PRA Category 1 Credit™",
  amount: 2,
  accreditingBody: "ACCME",
  accreditationStatement: "Credo Medical is accredited by the ACCME to provide CME for physicians.",
  designationStatement: AMA_DESIGNATION,
  claimStep: 0.25,
  licenceRequired: false,
  ...extra,
});

/** A course's credit offer: the types given (one AMA type by default) and their bodies. */
export function creditOffer(
  types: CreditTypeBody[] = [creditType()],
  providerNumbers: Record<string, string> = {},
): CourseCreditInput {
  const names = [...new Set(types.map((t) => t.accreditingBody).filter(Boolean))];
  return {
    bodies: names.map((name) => ({ name, providerNumber: providerNumbers[name] ?? "" })),
    types,
  };
}

/** A learner's answers to the default evaluation form. */
export const EVALUATION_ANSWERS = [
  { itemId: "objectives", value: 5 },
  { itemId: "relevance", value: 4 },
  { itemId: "balance", value: 5 },
  { itemId: "faculty", value: 3 },
  { itemId: "comments", value: "Клинические примеры были полезны" },
];

/**
 * One app per test file on a credit clock the tests move by hand, with an accredited course
 * and an enrolled learner built through the API.
 */
export function useCreditClaim() {
  // It starts at the real time, since enrollments are dated by the database.
  let at = new Date();
  const clock = {
    now: () => at,
    /** Back to the real time. */
    reset: () => {
      at = new Date();
    },
    advanceDays: (days: number) => {
      at = new Date(at.getTime() + days * 86_400_000);
    },
  };
  const ctx = useTestApp({}, { clock: clock.now });
  const video = useSharedVideo(ctx);

  /** A published two-module course offering the given credit (2 AMA credits) and activity. */
  async function setup(
    activity: ActivityInput | null = accme(),
    modules = 2,
    credit: CourseCreditInput = creditOffer(),
  ) {
    clock.reset();
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules,
    });
    const offered = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: credit,
    });
    expect(offered.statusCode, offered.body).toBe(200);
    if (activity) {
      const saved = await call(ctx, "PUT", `/api/courses/${course.id}/activity`, {
        cookie: adminCookie,
        payload: activity,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const learner = await quickLearner(ctx, { name: "Анна Иванова" });
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const url = (path: string) => `/api/courses/${course.id}/${path}`;
    const completion = async () =>
      (await call(ctx, "GET", url("completion"), { cookie })).json() as Completion;
    const types = (
      offered.json() as { creditTypes: { id: string; name: string; catalogueTypeId: string }[] }
    ).creditTypes;
    return { admin, adminCookie, course, learner, cookie, url, completion, types };
  }

  async function certificatesOf(cookie: string): Promise<Certificate[]> {
    return (await call(ctx, "GET", "/api/certificates/mine", { cookie })).json() as Certificate[];
  }

  return { ctx, video, clock, setup, certificatesOf };
}
