import type { EnrollmentWithRelations } from "@contract";
import {
  buildCertificateHtml,
  type CertificateData,
  certificateFileName,
} from "./certificate-html";

/** SPEC section 3: the certificate's fields, taken from a completed enrollment. */
export function certificateFromEnrollment(
  enrollment: EnrollmentWithRelations,
  productName: string,
): CertificateData {
  return {
    studentName: enrollment.user.name,
    courseTitle: enrollment.course.title,
    // A completed enrollment always has its time; the fallback only guards old rows.
    completedAt: enrollment.completedAt ?? new Date().toISOString(),
    durationHours: enrollment.course.duration,
    productName,
    certificateId: enrollment.id,
    category: enrollment.course.category,
  };
}

/** Builds the certificate and hands it to the browser as a file download. */
export function downloadCertificate(enrollment: EnrollmentWithRelations, productName: string) {
  const html = buildCertificateHtml(certificateFromEnrollment(enrollment, productName));
  const url = URL.createObjectURL(new Blob([html], { type: "text/html;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = certificateFileName(enrollment.course.title);
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on a later task: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
