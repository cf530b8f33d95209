import type { CatalogueTypeBody, CreditBodyBody, OrganisationBody } from "../../src/contract";

/**
 * The demo's provider: one organisation that issues every certificate, jointly accredited for
 * the healthcare team (physicians and nurses) and registered with NASBA for accountants.
 */
export const ORGANISATION = {
  name: "Credo Learning",
  address: "200 Market Street, Suite 400\nPhiladelphia, PA 19106",
  contactEmail: "ce@credo.test",
  dateFormat: "month-day-year",
} satisfies Omit<OrganisationBody, "logoPath">;

/** The accrediting bodies, each with the provider number it gave and its credit hour. */
export const BODIES = {
  ancc: { name: "ANCC", providerNumber: "P-0421", minutesPerHour: 60 },
  nasba: { name: "NASBA", providerNumber: "112233", minutesPerHour: 50 },
  accme: { name: "ACCME", providerNumber: "JA0004210", minutesPerHour: 60 },
} satisfies Record<string, CreditBodyBody>;

const JOINT_ACCREDITATION =
  "In support of improving patient care, Credo Learning is jointly accredited by the Accreditation Council for Continuing Medical Education (ACCME), the Accreditation Council for Pharmacy Education (ACPE), and the American Nurses Credentialing Center (ANCC), to provide continuing education for the healthcare team.";

/** The credit types the provider offers, each named once as its body writes it. */
export const CREDIT_TYPES = {
  contactHours: {
    body: "ancc",
    type: {
      name: "contact hours",
      singularName: "contact hour",
      accreditationStatement: `${JOINT_ACCREDITATION} Credo Learning is accredited as a provider of nursing continuing professional development by the American Nurses Credentialing Center's Commission on Accreditation.`,
      designationStatement: "This activity is awarded 1 ANCC contact hour.",
      profession: "Nursing",
      regulators: [],
      fieldsOfStudyRequired: false,
      licenceRequired: true,
    },
  },
  cpe: {
    body: "nasba",
    type: {
      name: "CPE credits",
      singularName: "CPE credit",
      accreditationStatement:
        "Credo Learning is registered with the National Association of State Boards of Accountancy (NASBA) as a sponsor of continuing professional education on the National Registry of CPE Sponsors. State boards of accountancy have final authority on the acceptance of individual courses for CPE credit. Complaints regarding registered sponsors may be submitted to the National Registry of CPE Sponsors through its website: www.nasbaregistry.org. CPE credits are based on a 50-minute hour.",
      designationStatement: "Recommended for 1 CPE credit.",
      profession: "Accountancy",
      regulators: [],
      fieldsOfStudyRequired: true,
      licenceRequired: true,
    },
  },
  ama: {
    body: "accme",
    type: {
      name: "AMA PRA Category 1 Credits™",
      singularName: "AMA PRA Category 1 Credit™",
      accreditationStatement: JOINT_ACCREDITATION,
      designationStatement:
        "Credo Learning designates this enduring material for a maximum of 1 AMA PRA Category 1 Credit™. Physicians should claim only the credit commensurate with the extent of their participation in the activity.",
      profession: "Medicine",
      regulators: [],
      fieldsOfStudyRequired: false,
      licenceRequired: false,
    },
  },
} satisfies Record<string, { body: keyof typeof BODIES; type: Omit<CatalogueTypeBody, "bodyId"> }>;

export type CatalogueKey = keyof typeof CREDIT_TYPES;
