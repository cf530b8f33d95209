import { type Certificate, logoIdOf, type Organisation } from "../../../contract";
import type { CertificateAssets } from "./certificate-pdf";

export interface CertificateAssetSources {
  /** The credit feature: a responsible official's signature image, by id. */
  signatures: { signatureBytes(id: string): Promise<Uint8Array | null> };
  /** The organisation feature: a logo's image by id, and the portal's date format. */
  organisation: {
    logoBytes(id: string): Promise<Uint8Array | null>;
    profile(): Promise<Organisation>;
  };
}

/** What a certificate's PDF draws beside its record: its signature, its logo, the date format. */
export function createCertificateAssets(sources: CertificateAssetSources) {
  return async (cert: Certificate): Promise<CertificateAssets> => {
    const signatureId = cert.credit?.signatureId;
    const logoId = cert.issuerLogoUrl ? logoIdOf(cert.issuerLogoUrl) : null;
    const [signature, logo, organisation] = await Promise.all([
      signatureId ? sources.signatures.signatureBytes(signatureId) : null,
      logoId ? sources.organisation.logoBytes(logoId) : null,
      sources.organisation.profile(),
    ]);
    return { signature, logo, dateFormat: organisation.dateFormat };
  };
}

export type CertificateAssetsOf = ReturnType<typeof createCertificateAssets>;
