import {
  type Certificate,
  certificateFileName,
  creditLines,
  type EnrollmentWithRelations,
  formatCertificateCode,
} from "@contract";
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
  return {
    ...base,
    studentName: issued.learnerName,
    courseTitle: issued.courseTitle,
    completedAt: issued.completedAt,
    durationHours: issued.durationHours,
    productName: issued.issuerName,
    category: issued.courseCategory,
    credit: creditLines(issued),
    verification: {
      code: formatCertificateCode(issued.code),
      url: issued.verifyUrl,
      qrSvg: await qrSvg(issued.verifyUrl),
    },
  };
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
