import type { LicenceBody } from "../../src/contract";
import type { CatalogueKey } from "./provider";

/** The demo's learners; each signs in as their first name at credo.test. */
export const LEARNERS = [
  "Amara Okafor",
  "Ben Carter",
  "Chen Wei",
  "Diego Alvarez",
  "Elena Petrova",
  "Farah Haddad",
  "George Mensah",
  "Hana Suzuki",
  "Isaac Cohen",
  "Julia Novak",
  "Kofi Boateng",
  "Lena Fischer",
];

/** Added and enrolled by the administrator, never signed in: the invitation still waits. */
export const INVITED_LEARNER = "Noah Park";

export const emailOf = (name: string) => `${name.split(" ")[0]!.toLowerCase()}@credo.test`;

const cpa = (number: string): LicenceBody => ({
  licenceType: "CPA",
  licenceNumber: number,
  licenceState: "Pennsylvania",
  npn: "",
});
const nurse = (number: string): LicenceBody => ({
  licenceType: "RN",
  licenceNumber: number,
  licenceState: "Ohio",
  npn: "",
});

/**
 * Where a learner stands in one accredited course. `modules` is how many they completed
 * (each with its review questions answered); `attempts` lists, per exam attempt, how many of
 * the drawn questions they answer correctly, so the server's grade follows (3 of 5 is 60%).
 * A `claim` evaluates the course and attests to the credit types named, with the licence the
 * certificate prints; `revoke` then revokes the certificate for that reason.
 */
export interface LearnerPlan {
  course: "ethics" | "nursing" | "physician";
  email: string;
  modules: number;
  attempts: number[];
  claim?: {
    types: CatalogueKey[];
    licence: LicenceBody | null;
    /** The part claimed of a type with a claim step (AMA credit); else the whole amount. */
    amount?: number;
  };
  revoke?: string;
  stage: string;
}

export const LEARNER_PLANS: LearnerPlan[] = [
  {
    course: "ethics",
    email: "amara@credo.test",
    modules: 3,
    attempts: [3, 4],
    claim: { types: ["cpe"], licence: cpa("CPA-048213") },
    stage: "failed once, then passed, evaluated, attested: certificate issued",
  },
  {
    course: "ethics",
    email: "farah@credo.test",
    modules: 3,
    attempts: [5],
    claim: { types: ["cpe"], licence: cpa("CPA-051177") },
    revoke: "The state board could not verify the licence attested to.",
    stage: "certificate issued, then revoked",
  },
  {
    course: "ethics",
    email: "ben@credo.test",
    modules: 3,
    attempts: [4],
    stage: "passed the exam, not yet evaluated or attested",
  },
  { course: "ethics", email: "chen@credo.test", modules: 3, attempts: [2], stage: "failed once" },
  { course: "ethics", email: "elena@credo.test", modules: 1, attempts: [], stage: "part-way" },
  { course: "ethics", email: "diego@credo.test", modules: 0, attempts: [], stage: "not started" },
  {
    course: "nursing",
    email: "george@credo.test",
    modules: 3,
    attempts: [],
    claim: { types: ["contactHours"], licence: nurse("RN-771204") },
    stage: "completed: certificate issued",
  },
  { course: "nursing", email: "hana@credo.test", modules: 1, attempts: [], stage: "part-way" },
  { course: "nursing", email: "isaac@credo.test", modules: 0, attempts: [], stage: "not started" },
  {
    course: "physician",
    email: "julia@credo.test",
    modules: 3,
    attempts: [],
    claim: { types: ["ama"], licence: null, amount: 0.75 },
    stage: "completed, claimed 0.75 AMA PRA Category 1 Credits™ of 1: certificate issued",
  },
  {
    course: "physician",
    email: "kofi@credo.test",
    modules: 3,
    attempts: [],
    claim: { types: ["contactHours"], licence: nurse("RN-689930") },
    stage: "completed, a nurse claiming contact hours: certificate issued",
  },
  {
    course: "physician",
    email: "hana@credo.test",
    modules: 2,
    attempts: [],
    stage: "part-way",
  },
];
