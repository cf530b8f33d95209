/**
 * Course and module toasts of SPEC section 8, word for word. (They belong beside TOASTS in
 * the contract; kept here until the contract gains them.)
 */
export const COURSE_TOASTS = {
  created: "Course created successfully",
  createFailed: "Error creating course",
  createFailedDescription: "Please check your information and try again.",
  deleted: "Course deleted successfully",
  error: "Error",
  deleteFailedDescription: "Failed to delete course",
  published: "Course published successfully",
  /** A refused publish names what failed; the description says why (not in the spec). */
  publishFailed: "Course not published",
  publishedDescription: "The course is now available to learners.",
  moduleAdded: "Module added successfully",
  moduleUpdated: "Module updated successfully",
  moduleDeleted: "Module deleted successfully",
  videoRequired: "Video required",
  videoRequiredDescription: "Please upload a video for this module.",
  /** A package module's content (not in the spec). */
  packageRequired: "Package required",
  packageRequiredDescription: "Please upload the course's SCORM or cmi5 package (.zip).",
  /** Completion and credit settings (not in the spec). */
  settingsSaved: "Completion settings saved",
  /** Editing, reordering and unpublishing (not in the spec). */
  updated: "Course updated successfully",
  updateFailed: "Error updating course",
  reorderFailed: "The new module order could not be saved.",
  /** Each refusal names what failed; the description says why. */
  unpublishFailed: "Course not unpublished",
  moduleDeleteFailed: "Module not deleted",
  moduleSaveFailed: "Module not saved",
  settingsSaveFailed: "Settings not saved",
  reorderFailedTitle: "Modules not reordered",
  unpublished: "Course unpublished",
  unpublishedDescription: "It is a draft again. Learners keep their progress.",
} as const;

export const COURSE_EMPTY_STATES = {
  noMatch: "No courses found matching your search",
  none: "No courses created yet",
} as const;

/** The browser confirmations before a deletion (SPEC section 5). */
export const COURSE_CONFIRMS = {
  deleteCourse: (title: string) =>
    `Delete "${title}"? Its modules, videos and every learner's enrollment in it will be removed. This cannot be undone.`,
  deleteModule: (title: string) => `Delete the module "${title}"? This cannot be undone.`,
} as const;
