import type { DemoCourse } from "./demo-course";

/**
 * A jointly accredited activity for the healthcare team: physicians claim AMA PRA Category 1
 * Credit™ (in quarter credits, as much as they took part), nurses ANCC contact hours.
 */
export const PHYSICIAN_COURSE = {
  title: "Opioid Prescribing: Safer Pain Care",
  category: "Mobile",
  duration: 1,
  colors: ["7c2d12", "f97316"],
  description:
    "Assess pain and risk before prescribing, choose the lowest effective dose, and taper with the patient. Up to 1 AMA PRA Category 1 Credit™ for physicians and 1 ANCC contact hour for nurses.",
  credit: [
    {
      type: "ama",
      amount: 1,
      designationStatement:
        "Credo Learning designates this enduring material for a maximum of 1 AMA PRA Category 1 Credit™. Physicians should claim only the credit commensurate with the extent of their participation in the activity.",
      claimStep: 0.25,
    },
    {
      type: "contactHours",
      amount: 1,
      designationStatement: "This activity is awarded 1 ANCC contact hour.",
      claimStep: null,
    },
  ],
  exam: null,
  activity: {
    objectives: [
      "Assess pain, function and the risk of opioid use disorder before prescribing",
      "Start with the lowest effective dose and the shortest duration",
      "Plan a taper together with the patient",
    ],
    faculty: [
      {
        name: "Daniel Kim, MD, FACP",
        role: "Course director",
        disclosure: "Nothing to disclose.",
      },
      {
        name: "Priya Natarajan, PharmD",
        role: "Planner",
        disclosure: "Advisory board, Harbor Pharmaceuticals (relationship ended 2025).",
      },
    ],
    disclosureStatement:
      "Priya Natarajan's past advisory role with Harbor Pharmaceuticals was reviewed, and the content was peer reviewed for balance. All relevant financial relationships have been mitigated.",
    releaseDate: null,
    reviewDate: null,
    expirationDate: null,
    enrollmentValidDays: 365,
    acknowledgementRequired: true,
    evaluationRequired: true,
    attestationRequired: true,
    attestationText:
      "I attest that I completed this activity and that the credit I claim is commensurate with the extent of my participation.",
    retentionYears: 6,
  },
  creditSettings: {
    sponsorName: "Credo Learning",
    sponsorAddress: "200 Market Street, Suite 400, Philadelphia, PA 19106",
    deliveryMethod: "Internet-based enduring material",
    fieldsOfStudy: [],
    officialName: "Daniel Kim, MD",
    officialTitle: "Medical Director, Continuing Education",
  },
  modules: [
    {
      title: "Before the first prescription",
      duration: 20,
      description: "Assessing pain and function, screening for risk, and checking the PDMP.",
      review: [],
    },
    {
      title: "Dose and duration",
      duration: 20,
      description:
        "Immediate-release first, the lowest effective dose, and three days or fewer for acute pain.",
      review: [],
    },
    {
      title: "Tapering together",
      duration: 20,
      description: "When and how to taper, naloxone, and what to do when a patient struggles.",
      review: [],
    },
  ],
  final: [],
} satisfies DemoCourse;
