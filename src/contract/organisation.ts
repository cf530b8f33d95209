import { z } from "zod";

/**
 * The organisation that runs the portal: the issuer named on its certificates, transcripts
 * and emails. Until an administrator sets a name, the portal issues as PRODUCT_NAME.
 */

/** A logo is printed small; a megabyte is plenty for a sharp PNG or JPEG. */
export const LOGO_MAX_BYTES = 1_048_576;
/** Raster images only: an SVG can carry script, and a certificate is opened anywhere. */
export const LOGO_TYPES = ["image/png", "image/jpeg"] as const;
/**
 * The longest side, in pixels, of a logo or a signature: far above what a certificate prints,
 * and a bound on what drawing one costs (a PDF decodes a PNG whole, about 8 bytes a pixel).
 */
export const IMAGE_MAX_SIDE_PX = 2000;

export const ORGANISATION_NAME_MAX = 120;
export const ORGANISATION_ADDRESS_MAX = 300;

/** How certificates, transcripts and verification pages print a date. */
export const DATE_FORMATS = ["month-day-year", "day-month-year", "iso"] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const DEFAULT_DATE_FORMAT: DateFormat = "month-day-year";

const DATE_FORMATTERS: Record<Exclude<DateFormat, "iso">, string> = {
  "month-day-year": "en-US",
  "day-month-year": "en-GB",
};

/**
 * A day as the chosen format prints it: "November 26, 2026", "26 November 2026" or
 * "2026-11-26". In UTC unless a zone is given (the browser passes the learner's own: they
 * finished on the day their calendar showed). Empty for an unparsable date.
 */
export function formatDocumentDate(
  iso: string,
  format: DateFormat = DEFAULT_DATE_FORMAT,
  timeZone = "UTC",
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (format === "iso") {
    // en-CA writes days as YYYY-MM-DD, in any zone.
    return new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      timeZone,
    }).format(date);
  }
  return new Intl.DateTimeFormat(DATE_FORMATTERS[format], {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone,
  }).format(date);
}

/**
 * A day in a compact list, as the chosen format abbreviates it: "Nov 26", "26 Nov" (with the
 * year when it is not `currentYear`'s), or always "2026-11-26". Empty for an unparsable date.
 */
export function formatShortDocumentDate(
  iso: string,
  format: DateFormat,
  timeZone: string,
  currentYear: number,
): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  if (format === "iso") return formatDocumentDate(iso, format, timeZone);
  const year = Number(new Intl.DateTimeFormat("en-US", { year: "numeric", timeZone }).format(date));
  return new Intl.DateTimeFormat(DATE_FORMATTERS[format], {
    month: "short",
    day: "numeric",
    ...(year === currentYear ? {} : { year: "numeric" }),
    timeZone,
  }).format(date);
}

/**
 * A moment as the chosen format prints it, with the time and its zone: "November 26, 2026,
 * 4:58 AM UTC", "26 November 2026, 04:58 UTC" or "2026-11-26 04:58 UTC". Empty for an
 * unparsable date.
 */
export function formatDocumentDateTime(
  iso: string,
  format: DateFormat = DEFAULT_DATE_FORMAT,
  timeZone = "UTC",
): string {
  const day = formatDocumentDate(iso, format, timeZone);
  if (!day) return "";
  const clock = new Intl.DateTimeFormat(format === "month-day-year" ? "en-US" : "en-GB", {
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(iso));
  return format === "iso" ? `${day} ${clock}` : `${day}, ${clock}`;
}

/** The settings page's choices, each shown as it prints. */
export const DATE_FORMAT_LABELS: Record<DateFormat, string> = {
  "month-day-year": "November 26, 2026",
  "day-month-year": "26 November 2026",
  iso: "2026-11-26",
};

/** Where a stored logo is served to anyone (it is printed on public verification pages). */
export const logoUrl = (logoId: string) => `/api/organisation/logos/${encodeURIComponent(logoId)}`;

/** The logo id inside a logo's address, or null. */
export const logoIdOf = (url: string) =>
  /^\/api\/organisation\/logos\/([A-Za-z0-9_-]{24})$/.exec(url)?.[1] ?? null;

/** PUT /api/admin/organisation. An empty name issues as the portal's product name. */
export const organisationBodySchema = z.strictObject({
  name: z
    .string()
    .trim()
    .max(ORGANISATION_NAME_MAX, `The name must be at most ${ORGANISATION_NAME_MAX} characters`),
  /** The object path of a finished logo upload, or null for no logo. */
  logoPath: z
    .string()
    .regex(/^\/objects\/uploads\/[A-Za-z0-9_-]{24}$/, "Upload the logo first")
    .nullable(),
  address: z
    .string()
    .trim()
    .max(
      ORGANISATION_ADDRESS_MAX,
      `The address must be at most ${ORGANISATION_ADDRESS_MAX} characters`,
    ),
  /** Where learners write to the organisation; empty for none. */
  contactEmail: z
    .string()
    .trim()
    .max(254, "The email must be at most 254 characters")
    .refine((v) => v === "" || z.email().safeParse(v).success, "Enter a valid email address")
    .transform((value) => value.toLowerCase()),
  dateFormat: z.enum(DATE_FORMATS, { error: "Choose one of the date formats" }),
});
export type OrganisationBody = z.infer<typeof organisationBodySchema>;

/** GET /api/organisation (public: it is what every certificate prints as its issuer). */
export const organisationSchema = z.object({
  name: z.string(),
  logoPath: z.string().nullable(),
  address: z.string(),
  contactEmail: z.string(),
  dateFormat: z.enum(DATE_FORMATS),
  /** The name certificates are issued under: the name, or the product name while it is empty. */
  issuerName: z.string(),
  /** The logo's public address, or null without a logo. */
  logoUrl: z.string().nullable(),
});
export type Organisation = z.infer<typeof organisationSchema>;

export const ORGANISATION_MESSAGES = {
  logoNotUploaded: "Upload the logo as a PNG or JPEG image first.",
  logoNotFound: "Logo not found.",
} as const;
