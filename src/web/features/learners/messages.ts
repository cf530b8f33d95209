/**
 * Learner toasts of SPEC section 8, word for word. (They belong beside TOASTS in the
 * contract; kept here until the contract gains them.)
 */
export const LEARNER_TOASTS = {
  added: "Learner added successfully",
  addedDescription: (email: string) => `An invitation email has been sent to ${email}.`,
  addFailed: "Error adding learner",
  addFailedDescription: "Please check the information and try again.",
  error: "Error",
  statusFailedDescription: "Failed to update learner status",
  deleted: "Learner deleted",
  deleteFailedDescription: "Failed to delete learner",
} as const;

/** The browser confirmations (SPEC section 5: the learner one names the enrollments). */
export const LEARNER_CONFIRMS = {
  deleteLearner: (name: string) =>
    `Delete ${name}? This will also remove all of the learner's enrollments and progress. This cannot be undone.`,
  removeEnrollment: (name: string, course: string) =>
    `Remove ${name} from "${course}"? Their progress in this course will be lost.`,
} as const;
