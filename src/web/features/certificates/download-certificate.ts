import {
  type Certificate,
  certificateFileName,
  creditLines,
  type EnrollmentWithRelations,
  formatCertificateCode,
} from "@contract";
import { creditClaimFacts, signaturePath } from "./certificate-credit";
import { buildCertificateHtml, type CertificateData } from "./certificate-html";
import { qrSvg } from "./certificate-qr";

/**
 * SPEC section 3: the certificate's fields, taken from a completed enrollment. With its
 * issued certificate the snapshot wins: name, title, hours and credit as
 * certified, plus the code, the verification address and its QR code.
 */
async function certificateFromEnrollment(
  enrollment: EnrollmentWithRelations,
  productName: string,
  issued?: Certificate,
): Promise<CertificateData> {
  const base: CertificateData = {
    studentName: enrollment.user.name,
    courseTitle: enrollment.course.title,
    // A completed enrollment always has its time; the fallback only guards old rows.
    completedAt: enrollment.completedAt ?? new Date().toISOString(),
    durationHours: enrollment.course.duration,
    productName,
    certificateId: enrollment.id,
    category: enrollment.course.category,
  };
  if (!issued) return base;
  const facts = creditClaimFacts(issued);
  return {
    ...base,
    studentName: issued.learnerName,
    courseTitle: issued.courseTitle,
    completedAt: issued.completedAt,
    durationHours: issued.durationHours,
    productName: issued.issuerName,
    category: issued.courseCategory,
    // A credit-ready certificate prints the credit claimed among the claim's facts.
    credit: creditLines(facts ? { ...issued, creditHours: null, creditType: null } : issued),
    verification: {
      code: formatCertificateCode(issued.code),
      url: issued.verifyUrl,
      qrSvg: await qrSvg(issued.verifyUrl),
    },
    ...(facts
      ? {
          claim: {
            facts,
            signatureSrc: facts.signatureId ? await signatureSource(facts.signatureId) : null,
          },
        }
      : {}),
  };
}

/**
 * The official's signature as a data URL, so the saved file prints it offline; the image's
 * address on this portal if it cannot be read now.
 */
async function signatureSource(signatureId: string): Promise<string> {
  const address = new URL(signaturePath(signatureId), window.location.origin).href;
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

/** Builds the certificate and hands it to the browser as a file download. */
export async function downloadCertificate(
  enrollment: EnrollmentWithRelations,
  productName: string,
  issued?: Certificate,
) {
  const data = await certificateFromEnrollment(enrollment, productName, issued);
  const html = buildCertificateHtml(data);
  const url = URL.createObjectURL(new Blob([html], { type: "text/html;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = certificateFileName(enrollment.course.title, "html");
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on a later task: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
