import type { DemoCourse } from "./demo-course";

/** Nursing continuing professional development: one ANCC contact hour, no exam. */
export const NURSING_COURSE = {
  title: "Safe Medication Administration",
  category: "Design",
  duration: 1,
  colors: ["0f766e", "22c55e"],
  description:
    "Prevent medication errors at the bedside: the rights of medication administration, high-alert medications, and speaking up when something looks wrong. One ANCC contact hour for nurses.",
  credit: [
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
      "Apply the rights of medication administration at every dose",
      "Recognise high-alert medications and the double checks they need",
      "Use a structured way to speak up about an unsafe order",
    ],
    faculty: [
      {
        name: "Rosa Delgado, DNP, RN, CPHQ",
        role: "Planner and author",
        disclosure: "Nothing to disclose.",
      },
      {
        name: "Thomas Reed, MSN, RN",
        role: "Nurse planner",
        disclosure: "Nothing to disclose.",
      },
    ],
    disclosureStatement:
      "None of the planners or faculty of this activity have relevant financial relationships with ineligible companies.",
    releaseDate: null,
    reviewDate: null,
    expirationDate: null,
    enrollmentValidDays: 365,
    acknowledgementRequired: true,
    evaluationRequired: true,
    attestationRequired: true,
    attestationText:
      "I attest that I completed this activity in full and that the contact hours I claim reflect my participation.",
    retentionYears: 6,
  },
  creditSettings: {
    sponsorName: "Credo Learning",
    sponsorAddress: "200 Market Street, Suite 400, Philadelphia, PA 19106",
    deliveryMethod: "Internet-based enduring material",
    fieldsOfStudy: [],
    officialName: "Rosa Delgado, DNP, RN",
    officialTitle: "Lead Nurse Planner",
  },
  modules: [
    {
      title: "The rights of medication administration",
      duration: 20,
      description:
        "Right patient, drug, dose, route and time, and the checks that make them more than a list.",
      review: [],
    },
    {
      title: "High-alert medications",
      duration: 20,
      description:
        "Insulin, anticoagulants, opioids and concentrated electrolytes: why they harm, and independent double checks.",
      review: [],
    },
    {
      title: "Speaking up",
      duration: 20,
      description:
        "Questioning an unclear or unsafe order with a structured conversation, and reporting near misses.",
      review: [],
    },
  ],
  final: [],
} satisfies DemoCourse;
