import {
  ASSESSMENT_MESSAGES,
  CPE_MIN_FINAL_PER_CREDIT,
  CPE_MIN_PASS_MARK,
  CPE_MIN_REVIEW_PER_CREDIT,
  type CreditType,
  type ExamSettingsBody,
  type PublishCheck,
} from "../../../contract";
import type { QuestionRow } from "./assessments.table";

/** A credit type is NASBA self-study credit when its name or accreditor says so. */
const isCpe = (type: Pick<CreditType, "name" | "accreditingBody">) =>
  /\b(CPE|NASBA)\b/i.test(`${type.name} ${type.accreditingBody ?? ""}`);

/**
 * What the course page shows before publishing. An exam that cannot draw its questions
 * blocks publishing; the NASBA/AICPA QAS floors only warn (the provider answers to the
 * accreditor, and may be mid-way through writing the bank).
 */
export function publishChecks(input: {
  /** The credit types the course offers: the NASBA floors follow its CPE credit. */
  creditTypes: Pick<CreditType, "name" | "accreditingBody" | "amount">[];
  settings: ExamSettingsBody;
  questions: readonly QuestionRow[];
}): PublishCheck[] {
  const { settings, questions } = input;
  const final = questions.filter((q) => q.pool === "final");
  const review = questions.filter((q) => q.pool === "review");
  const checks: PublishCheck[] = [];
  if (settings.enabled && final.length < settings.questionCount) {
    checks.push({
      key: "pool-too-small",
      severity: "blocking",
      message: ASSESSMENT_MESSAGES.notEnoughQuestions(final.length, settings.questionCount),
    });
  }
  const cpe = input.creditTypes.filter(isCpe);
  if (!cpe.length) return checks;
  const credits = Math.max(...cpe.map((t) => t.amount));
  const warn = (key: string, message: string) => checks.push({ key, severity: "warning", message });
  if (!settings.enabled) {
    warn("cpe-no-exam", "NASBA self-study requires a final exam; this course has none enabled.");
    if (final.length < settings.questionCount) {
      warn(
        "pool-too-small",
        ASSESSMENT_MESSAGES.notEnoughQuestions(final.length, settings.questionCount),
      );
    }
  }
  const creditsText = `${credits} ${credits === 1 ? "credit" : "credits"}`;
  const finalNeeded = Math.ceil(credits * CPE_MIN_FINAL_PER_CREDIT);
  if (final.length < finalNeeded) {
    warn(
      "cpe-final-per-credit",
      `NASBA asks for at least ${CPE_MIN_FINAL_PER_CREDIT} final-exam questions per credit: ${finalNeeded} for ${creditsText}; the pool has ${final.length}.`,
    );
  }
  if (settings.passMark < CPE_MIN_PASS_MARK) {
    warn(
      "cpe-pass-mark",
      `NASBA asks for a pass mark of at least ${CPE_MIN_PASS_MARK}%; this exam's is ${settings.passMark}%.`,
    );
  }
  const trueFalse = final.filter((q) => q.kind === "true_false").length;
  if (trueFalse > 0) {
    warn(
      "cpe-true-false",
      `NASBA does not accept true/false questions in a final exam; the pool has ${trueFalse}.`,
    );
  }
  const reviewNeeded = Math.ceil(credits * CPE_MIN_REVIEW_PER_CREDIT);
  if (review.length < reviewNeeded) {
    warn(
      "cpe-review-per-credit",
      `NASBA asks for at least ${CPE_MIN_REVIEW_PER_CREDIT} review questions per credit: ${reviewNeeded} for ${creditsText}; the course has ${review.length}.`,
    );
  }
  return checks;
}
