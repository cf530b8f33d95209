import {
  type Certificate,
  type CertificateSource,
  certificateDocument,
  certificateFileName,
  type DateFormat,
  type EnrollmentWithRelations,
} from "@contract";
import { signaturePath } from "./certificate-credit";
import { buildCertificateHtml } from "./certificate-html";
import { qrSvg } from "./certificate-qr";

/** Who issues a certificate not yet issued by the server, and how it prints dates. */
export type CertificateIssuer = {
  productName: string;
  /** The organisation's name (the product name until one is set). */
  issuerName: string;
  dateFormat: DateFormat;
};

/**
 * SPEC section 3: the certificate's fields, taken from a completed enrollment. With its
 * issued certificate the snapshot wins: name, title, hours, credit and issuer as certified,
 * plus the code, the verification address and its QR code.
 */
function sourceOf(
  enrollment: EnrollmentWithRelations,
  issuer: CertificateIssuer,
  issued?: Certificate,
): CertificateSource {
  if (issued) return issued;
  return {
    learnerName: enrollment.user.name,
    courseTitle: enrollment.course.title,
    courseCategory: enrollment.course.category,
    durationHours: enrollment.course.duration,
    credits: [],
    issuerName: issuer.issuerName,
    issuerLogoUrl: null,
    examScore: null,
    examPassedAt: null,
    credit: null,
    // A completed enrollment always has its time; the fallback only guards old rows.
    completedAt: enrollment.completedAt ?? new Date().toISOString(),
    revokedAt: null,
    revokedReason: null,
    code: null,
    verifyUrl: null,
  };
}

/**
 * An image of this portal as a data URL, so the saved file prints it offline; its address
 * on this portal if it cannot be read now.
 */
async function inlineImage(path: string): Promise<string> {
  const address = new URL(path, window.location.origin).href;
  try {
    const res = await fetch(address, { credentials: "include" });
    if (!res.ok) return address;
    const blob = await res.blob();
    if (!/^image\/(png|jpeg)$/.test(blob.type)) return address;
    return await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(typeof reader.result === "string" ? reader.result : address);
      reader.onerror = () => resolve(address);
      reader.readAsDataURL(blob);
    });
  } catch {
    return address;
  }
}

/** Builds the HTML certificate and hands it to the browser as a file download. */
export async function downloadCertificate(
  enrollment: EnrollmentWithRelations,
  issuer: CertificateIssuer,
  issued?: Certificate,
) {
  const document = certificateDocument(sourceOf(enrollment, issuer, issued), {
    dateFormat: issuer.dateFormat,
  });
  const signatureId = issued?.credit?.signatureId;
  const [logoSrc, signatureSrc, qr] = await Promise.all([
    document.issuer.logoUrl ? inlineImage(document.issuer.logoUrl) : null,
    signatureId && document.signatory ? inlineImage(signaturePath(signatureId)) : null,
    document.verification ? qrSvg(document.verification.url) : null,
  ]);
  const html = buildCertificateHtml({
    document,
    logoSrc,
    signatureSrc,
    qrSvg: qr,
    productName: issuer.productName,
  });
  const url = URL.createObjectURL(new Blob([html], { type: "text/html;charset=utf-8" }));
  const link = window.document.createElement("a");
  link.href = url;
  link.download = certificateFileName(enrollment.course.title, "html");
  link.rel = "noopener";
  window.document.body.append(link);
  link.click();
  link.remove();
  // Revoked on a later task: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
