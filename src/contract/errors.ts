import { z } from "zod";

/**
 * Every error answer's `code`, with the HTTP status it is sent with: a stable dotted
 * identifier that clients decide by (the message is for people and may be reworded). The
 * first segment names the feature that raises it; each feature's codes are listed here
 * once, under its name, so the server cannot raise an undeclared code (or send one with
 * another status) and a client can switch over them exhaustively. They stay in this one
 * file, which imports no feature's schemas: the web client checks every error answer with
 * `errorSchema` on every page, so the list must not bring those schemas into the first load.
 */
export const ERROR_CODES = {
  // The request itself: its address, host, origin, media type and size.
  "request.address_too_long": 414,
  "request.cross_site": 403,
  "request.idempotency_in_progress": 409,
  "request.idempotency_key_reused": 409,
  "request.invalid": 400,
  "request.invalid_address": 400,
  "request.invalid_json": 400,
  "request.json_required": 415,
  "request.not_found": 404,
  "request.throttled": 429,
  "request.too_large": 413,
  "request.wrong_host": 421,
  // A body, query, parameter or cursor the route's schema refuses (with `path`).
  "validation.invalid_body": 400,
  "validation.invalid_cursor": 400,
  "validation.invalid_headers": 400,
  "validation.invalid_params": 400,
  "validation.invalid_query": 400,
  "validation.invalid_range": 400,
  // Text the portal does not store.
  "input.unicode": 400,
  // The portal cannot answer now.
  "system.error": 500,
  "system.unavailable": 503,
  // Sign-in, sessions, passwords, invitations and identity-service accounts.
  "auth.access_denied": 403,
  "auth.admin_setup_disabled": 403,
  "auth.current_password_required": 400,
  "auth.current_password_wrong": 400,
  "auth.email_taken": 409,
  "auth.forbidden": 403,
  "auth.identity_email_unverified": 403,
  "auth.identity_in_use": 409,
  "auth.identity_mismatch": 401,
  "auth.identity_not_configured": 400,
  "auth.identity_token_invalid": 401,
  "auth.identity_unavailable": 503,
  "auth.invalid_admin_key": 403,
  "auth.invalid_credentials": 401,
  "auth.invitation_invalid": 404,
  "auth.invitation_required": 403,
  "auth.new_password_required": 400,
  "auth.not_signed_in": 401,
  "auth.not_your_account": 403,
  "auth.session_not_found": 404,
  "auth.session_current": 409,
  "auth.password_already_set": 409,
  "auth.reset_link_invalid": 400,
  "auth.restricted": 403,
  "auth.throttled": 429,
  // An administrator's second factor: the sign-in's second step, setting factors up, the rule.
  "mfa.challenge_expired": 401,
  "mfa.code_invalid": 401,
  "mfa.code_reused": 401,
  "mfa.confirmation_wrong": 400,
  "mfa.enrol_first": 409,
  "mfa.not_found": 404,
  "mfa.passkey_invalid": 401,
  "mfa.passkey_registration_invalid": 400,
  "mfa.passkey_unknown": 401,
  "mfa.recovery_code_used": 401,
  "mfa.required_by_organisation": 409,
  "mfa.secrets_key_missing": 503,
  "mfa.setup_code_invalid": 400,
  "mfa.setup_not_required": 409,
  "mfa.setup_not_started": 409,
  "mfa.setup_required": 409,
  "mfa.sign_in_required": 401,
  "mfa.totp_exists": 409,
  // Single sign-on: identity providers' settings and the sign-on itself.
  "sso.client_secret_required": 400,
  "sso.domain_taken": 409,
  "sso.issuer_insecure": 400,
  "sso.issuer_unreachable": 400,
  "sso.protocol_mismatch": 400,
  "sso.protocol_unavailable": 400,
  "sso.provider_not_found": 404,
  "sso.saml_metadata_insecure": 400,
  "sso.saml_metadata_invalid": 400,
  "sso.saml_metadata_required": 400,
  "sso.saml_metadata_unreachable": 400,
  "sso.saml_signing_certificate_missing": 400,
  "sso.secrets_key_missing": 400,
  "sso.user_not_found": 404,
  // The organisation's credit catalogue.
  "catalogue.body_in_use": 409,
  "catalogue.body_name_taken": 409,
  "catalogue.body_not_found": 404,
  "catalogue.merge_conflict": 409,
  "catalogue.type_in_use": 409,
  "catalogue.type_name_taken": 409,
  "catalogue.type_not_found": 404,
  // Learner accounts and bulk import.
  "learners.invalid_file": 400,
  "learners.not_found": 404,
  // Courses, their modules and their publication.
  "courses.credit_type_not_found": 400,
  "courses.publish_blocked": 409,
  "courses.module_changed": 409,
  "courses.thumbnail_changed": 409,
  "courses.module_id_taken": 409,
  "courses.module_locked": 409,
  "courses.module_not_found": 404,
  "courses.not_found": 404,
  "courses.not_published": 400,
  "courses.order_mismatch": 400,
  "courses.publish_needs_confirmation": 409,
  "courses.publish_needs_modules": 409,
  "courses.published_needs_modules": 409,
  "courses.thumbnail_not_uploaded": 400,
  "courses.unpublished": 409,
  "courses.video_not_uploaded": 400,
  // Modules whose content is a SCORM or cmi5 package: each fault of a package its own code.
  "modules.not_a_package": 409,
  "modules.package_aicc": 400,
  "modules.package_attempt_ended": 409,
  "modules.package_data_invalid": 400,
  "modules.package_invalid_manifest": 400,
  "modules.package_item_not_found": 404,
  "modules.package_kind_mismatch": 400,
  "modules.package_launch_missing": 400,
  "modules.package_manifest_in_folder": 400,
  "modules.package_no_manifest": 400,
  "modules.package_no_organization": 400,
  "modules.package_not_uploaded": 400,
  "modules.package_not_zip": 400,
  "modules.package_nothing_to_launch": 400,
  "modules.package_reports_completion": 409,
  "modules.package_seat_time": 409,
  // A package's files on the content origin.
  "content.link_expired": 403,
  "content.not_found": 404,
  "modules.package_too_large": 400,
  "modules.package_too_many_files": 400,
  "modules.package_unknown_version": 400,
  "modules.package_unreadable": 400,
  "modules.package_unsafe_path": 400,
  // Enrollments and progress.
  "enrollments.already_enrolled": 409,
  "enrollments.course_unpublished": 409,
  "enrollments.learner_required": 400,
  "enrollments.not_a_learner": 400,
  "enrollments.not_enrolled": 403,
  "enrollments.not_found": 404,
  "enrollments.not_learners": 400,
  "enrollments.not_your_enrollments": 403,
  "enrollments.not_your_progress": 403,
  // Verified watching.
  "watching.beyond_duration": 400,
  "watching.duration_mismatch": 400,
  "watching.impossible_report": 400,
  "watching.not_a_video": 409,
  "watching.not_seated_enough": 409,
  "watching.not_watched_enough": 409,
  // Administrators' view of the learners' attempts at package modules, and their resets.
  "attempts.not_a_package": 409,
  "attempts.nothing_to_reset": 409,
  // Stored files.
  "objects.module_locked": 403,
  "objects.not_found": 404,
  // Uploads of videos, images and files.
  "uploads.content_mismatch": 415,
  "uploads.incomplete": 400,
  "uploads.larger_than_declared": 413,
  "uploads.not_finished": 409,
  "uploads.not_found": 404,
  "uploads.not_issued": 400,
  "uploads.too_large": 413,
  "uploads.type_not_allowed": 415,
  // Caption tracks.
  "captions.invalid_file": 400,
  "captions.module_locked": 403,
  "captions.not_found": 404,
  "captions.not_webvtt": 415,
  "captions.too_large": 413,
  "captions.too_many": 409,
  // The question bank.
  "questions.not_found": 404,
  "questions.order_mismatch": 400,
  "questions.too_many": 409,
  "questions.unknown_module": 400,
  // Review questions.
  "review.answer_first": 409,
  "review.choice_required": 400,
  // The final exam and its attempts.
  "exam.already_passed": 409,
  "exam.attempt_not_found": 404,
  "exam.attempt_submitted": 409,
  "exam.deadline_passed": 409,
  "exam.disabled": 409,
  "exam.no_attempts_left": 409,
  "exam.not_enough_questions": 409,
  "exam.not_graded": 409,
  "exam.not_open": 409,
  "exam.not_your_attempt": 403,
  "exam.one_option_only": 400,
  "exam.question_answered_twice": 400,
  "exam.question_not_presented": 400,
  // The activity page, the credit clock and the order of completion steps.
  "credit.acknowledge_first": 409,
  "credit.enrollment_expired": 409,
  "credit.expired": 409,
  "credit.fields_of_study_mismatch": 409,
  "credit.signature_not_found": 404,
  "credit.signature_not_image": 400,
  "credit.step_out_of_order": 409,
  // The course evaluation.
  "evaluation.already_submitted": 409,
  "evaluation.not_asked": 409,
  "evaluation.invalid_answers": 400,
  // A form step (commitment to change…): the administrator's form, the learner's answers.
  "forms.already_answered": 409,
  "forms.invalid_answers": 400,
  "forms.not_asked": 409,
  // The attestation of participation and the credit claimed.
  "attestation.already_attested": 409,
  "attestation.claim_off_step": 400,
  "attestation.claim_required": 400,
  "attestation.claim_too_high": 400,
  "attestation.no_partial_credit": 400,
  "attestation.not_asked": 409,
  "attestation.regulator_ids_missing": 409,
  "attestation.reporting_consent_required": 400,
  "attestation.statement_changed": 409,
  "attestation.unknown_credit_type": 400,
  // Certificates and transcripts.
  "certificates.already_revoked": 409,
  "certificates.not_found": 404,
  "certificates.not_your_transcript": 403,
  // Open Badges credentials of certificates and the issuer's status lists.
  "credentials.not_found": 404,
  "credentials.not_yours": 403,
  "credentials.status_list_not_found": 404,
  // The organisation profile: the issuer of certificates, transcripts and emails.
  "organisation.logo_not_found": 404,
  "organisation.logo_not_uploaded": 400,
  // Regulator reporting: what a course reports, and the report files.
  "reporting.activity_id_missing": 409,
  "reporting.activity_record_incomplete": 409,
  "reporting.already_submitted": 409,
  "reporting.attestation_required": 409,
  "reporting.course_not_reporting": 409,
  "reporting.credit_type_not_found": 400,
  "reporting.file_not_found": 404,
  "reporting.nothing_to_report": 409,
  "reporting.submitted_by_service": 409,
  "reporting.connection_missing": 409,
  "reporting.secrets_key_missing": 409,
  "reporting.connection_invalid": 400,
  // Reminder emails.
  "reminders.unsubscribe_link_invalid": 404,
  // Expensive answers (reports, exports).
  "downloads.throttled": 429,
  // cmi5 modules: launching their units, waiving one, and what the AUs send the LMS.
  "cmi5.already_satisfied": 409,
  "cmi5.au_not_found": 404,
  "cmi5.not_cmi5_module": 404,
  "cmi5.not_launched": 409,
  "cmi5.statement_refused": 403,
  // The xAPI resources the cmi5 AUs report to (on the content origin).
  "xapi.forbidden": 403,
  "xapi.invalid_request": 400,
  "xapi.not_found": 404,
  "xapi.precondition_failed": 412,
  "xapi.statement_conflict": 409,
  "xapi.storage_full": 413,
  "xapi.unauthorized": 401,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes sent with HTTP status `S`. */
export type ErrorCodeOf<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C] extends S ? C : never;
}[ErrorCode];

/** Every declared code. */
export const ALL_ERROR_CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/**
 * Every error answer: a message for people, a code for programs, and for a refused field
 * of a request the field's dotted `path` (`questions.0.text`).
 */
export const errorSchema = z.object({
  message: z.string(),
  code: z.enum(ALL_ERROR_CODES),
  path: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorSchema>;
