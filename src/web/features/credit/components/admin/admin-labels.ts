/** What the administrator's credit screens say when something is saved or fails. */
export const CREDIT_ADMIN_TOASTS = {
  activitySaved: "Activity saved",
  settingsSaved: "Certificate details saved",
  creditTypesSaved: "Credit types saved",
  signatureSaved: "Signature uploaded",
  signatureRemoved: "Signature removed",
  evaluationSaved: "Evaluation saved",
  /** A form step's settings, by its label: "Commitment to change saved". */
  formStepSaved: (label: string) => `${label} saved`,
} as const;

/** The two kinds of evaluation item, as the editor and the results name them. */
export const EVALUATION_KIND_LABELS = { likert: "Rating 1–5", text: "Free text" } as const;

/** "12", "0.25": a number as an administrator typed it, never in exponent notation. */
export const numberText = (value: number | null) => (value === null ? "" : String(value));

/**
 * A number typed as text: blank is null, anything else its numeric value (NaN for words, which
 * the contract's rule then names).
 */
export const blankOrNumber = (value: string): number | null =>
  value.trim() === "" ? null : Number(value.trim());
