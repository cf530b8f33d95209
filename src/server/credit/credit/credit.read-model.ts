import { type CreditSettings, DEFAULT_CREDIT_SETTINGS } from "../../../contract";
import type { Executor } from "../../db/client";
import { createCreditRepository } from "./credit.repository";
import type { CourseCreditSettingsRow } from "./credit.table";

/** The course's credit settings as stored; undefined for a course that has none. */
export const loadCreditSettings = (db: Executor, courseId: string) =>
  createCreditRepository(db).creditSettingsOf(courseId);

/**
 * The course's credit settings as the activity page, the credit settings dialog and the
 * credit-ready certificate show them; the defaults for a plain course.
 */
export function creditSettingsOf(row: CourseCreditSettingsRow | undefined): CreditSettings {
  if (!row) return DEFAULT_CREDIT_SETTINGS;
  return {
    sponsorName: row.sponsorName,
    sponsorAddress: row.sponsorAddress,
    deliveryMethod: row.deliveryMethod,
    fieldsOfStudy: row.fieldsOfStudy,
    officialName: row.officialName,
    officialTitle: row.officialTitle,
    signatureId: row.signatureId,
  };
}
