/** Business constants of SPEC section 9, shared by the server's schemas and the forms. */
export const MIN_PASSWORD_LENGTH = 6;
/** scrypt hashes the whole input, but an unbounded password is a CPU-exhaustion vector. */
export const MAX_PASSWORD_LENGTH = 1024;
export const SETUP_DIALOG_AUTO_CLOSE_MS = 2000;
/** A person's full name, as typed in a form or sent by an identity provider. */
export const MAX_NAME_LENGTH = 120;

export const THUMBNAIL_MAX_BYTES = 5_242_880;
export const VIDEO_MAX_BYTES = 524_288_000;
export const THUMBNAIL_TYPES = ["image/jpeg", "image/png", "image/webp", "image/gif"] as const;
export const VIDEO_TYPES = ["video/mp4", "video/webm", "video/quicktime"] as const;

export const CATEGORIES = ["Development", "Database", "Mobile", "Design"] as const;
export type Category = (typeof CATEGORIES)[number];

export const DASHBOARD_RECENT_ITEMS = 3;
export const REPORT_RECENT_COMPLETIONS = 10;

export const TOAST_DURATION_MS = 5000;
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ["F8"];
export const TOAST_LABEL = "Notification";

export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const TOOLTIP_SIDE = "top" as const;
export const TOOLTIP_OFFSET = 4;

/** Login throttling: failures counted in a sliding window. */
export const LOGIN_WINDOW_MS = 5 * 60 * 1000;
export const LOGIN_MAX_FAILURES_PER_ACCOUNT_AND_IP = 10;
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 20;
