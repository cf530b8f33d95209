import type { CertificateCredit } from "@contract";
import { describe, expect, it } from "vitest";
import { creditClaimFacts } from "./certificate-credit";

const credit: CertificateCredit = {
  creditsClaimed: 1,
  fieldsOfStudy: [
    { field: "Auditing", credits: 1.5 },
    { field: "Ethics", credits: 0.5 },
  ],
  sponsorName: "Northwind CPE",
  sponsorAddress: "1 Main St\nSpringfield, IL",
  deliveryMethod: "QAS Self-Study",
  accreditationStatement: "Northwind CPE is registered with NASBA.",
  registryNumber: "112233",
  officialName: "Dana Lee",
  officialTitle: "Director of Education",
  signatureId: "sig_1",
  licence: { licenceType: "CPA", licenceNumber: "A-1", licenceState: "Illinois", npn: "" },
  attestedAt: "2026-11-20T10:00:00.000Z",
};

describe("creditClaimFacts", () => {
  it("is null for a certificate without credit settings", () => {
    expect(creditClaimFacts({ credit: null, creditHours: 2, creditType: "CPE" })).toBeNull();
  });

  it("prints a partial claim against the designated credit, scaling each field", () => {
    const facts = creditClaimFacts({ credit, creditHours: 2, creditType: "CPE" });
    expect(facts?.credits).toBe("1 CPE credit claimed (2 designated)");
    expect(facts?.fields).toBe("Auditing: 0.75 · Ethics: 0.25");
    expect(facts?.sponsorAddress).toBe("1 Main St, Springfield, IL");
    expect(facts?.licence).toBe("CPA A-1 (Illinois)");
  });

  it("prints the designated credit when claimed whole, and an NPN", () => {
    const facts = creditClaimFacts({
      credit: {
        ...credit,
        creditsClaimed: 2,
        licence: { licenceType: "", licenceNumber: "", licenceState: "", npn: "8812345" },
      },
      creditHours: 2,
      creditType: null,
    });
    expect(facts?.credits).toBe("2 credits");
    expect(facts?.fields).toBe("Auditing: 1.5 · Ethics: 0.5");
    expect(facts?.licence).toBe("NPN 8812345");
  });
});
