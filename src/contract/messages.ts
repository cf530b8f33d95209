import { formatWatchSeconds } from "./durations";

/** Exact user-facing texts of SPEC sections 2, 5 and 8. Never reword these. */
export const MESSAGES = {
  restricted: "Your account has been restricted. Please contact the administrator.",
  accessDenied: "Access denied. Only admin-registered learner emails are allowed.",
  invalidCredentials: "Invalid email or password.",
  tooManyAttempts: "Too many attempts. Please wait a few minutes and try again.",
  invalidAdminKey: "Invalid admin key.",
  emailTaken: "An account with this email already exists.",
  passwordAlreadySet: "Password already set",
  passwordAlreadySetDescription:
    "You have already set up your password. Please use the regular login or forgot password option.",
  currentPasswordWrong: "Current password is incorrect.",
  currentPasswordRequired: "Current password is required to set a new password.",
  notSignedIn: "Not signed in.",
  forbidden: "You do not have access to this resource.",
  notFound: "Not found.",
  crossSite: "Cross-site request refused.",
  wrongHost: "This portal is not served at this address.",
  tooManyDownloads: "Too many downloads at once. Please wait a moment and try again.",
  jsonRequired: "Requests that change data must be sent as JSON.",
  // A form's second send carries the same Idempotency-Key as its first (plugins/idempotency.ts).
  idempotencyKeyReused:
    "This form was already sent with other details. Close it and open it again to send these.",
  idempotencyInProgress: "This form is still being sent. Please wait a moment.",
  idempotencyKeyInvalid: "The Idempotency-Key header must be 1 to 255 visible characters.",
  serverError: "Something went wrong. Please try again.",
  unavailable: "Service temporarily unavailable. Please try again shortly.",
  pageNotFound: "Page Not Found",
  loading: "Loading...",
  loadingCourse: "Loading course details...",
  courseNotFound: "Course not found",
} as const;

/** Toast titles and descriptions (SPEC section 8). */
export const TOASTS = {
  loginFailed: "Login failed",
  loginFailedFallback: "Please check your credentials and try again.",
  loginSuccess: "Login successful!",
  loginSuccessScreen: "Login successful",
  welcomeBackScreen: "Welcome back!",
  welcomeBack: (name: string) => `Welcome back, ${name}!`,
  setupFailed: "Password setup failed",
  setupFailedFallback: "Please try again.",
  setupSuccess: "Password set successfully!",
  adminSetupFailed: "Admin setup failed",
  adminSetupSuccess: "Admin account created successfully!",
  loggedOut: "Logged out successfully",
  emailNotFound: "Email not found",
  emailNotFoundDescription:
    "This email is not registered by an administrator. Please contact your admin.",
  emailCheckFailed: "Email check failed",
  emailVerified: "Email verified",
  emailVerifiedDescription: "Your email is registered. You can now set your password.",
  emailRequired: "Email required",
  emailRequiredDescription: "Please enter your email address.",
  emailVerificationRequired: "Email verification required",
  emailVerificationRequiredDescription: "Please verify your email first.",
  passwordMismatch: "Password mismatch",
  passwordMismatchDescription: "Passwords do not match.",
  passwordTooShort: "Password too short",
  passwordTooShortDescription: "Password must be at least 6 characters long.",
  profileUpdated: "Profile updated successfully",
  profileUpdateFailed: "Failed to update profile",
  profileUpdateFailedFallback: "Please check your information and try again.",
  profilePasswordMismatchDescription: "New password and confirm password do not match.",
  resetEmailSent: "Password reset email sent",
  resetEmailFailed: "Failed to send reset email",
  resetEmailFailedDescription: "Please try again later.",
} as const;

/** What the player and the server say about verified watching. */
export const WATCH_MESSAGES = {
  notWatchedEnough: (minPercent: number) =>
    `Watch at least ${minPercent}% of this video before marking it complete.`,
  notSeatedEnough: (minSeconds: number) =>
    `Spend at least ${formatWatchSeconds(minSeconds)} with this video playing before marking it complete.`,
  beyondDuration: "The reported playback lies beyond the end of the video.",
  durationMismatch:
    "The video's length does not match this module. Ask your administrator to check the module's duration.",
  impossibleReport: "The reported playback is more than the time elapsed allows.",
  watchedToComplete: "Watch the video to unlock 'Mark as Complete'.",
} as const;
