import {
  IMAGE_MAX_SIDE_PX,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  PACKAGE_FILE_EXTENSION,
  PACKAGE_MAX_BYTES,
  THUMBNAIL_MAX_BYTES,
  THUMBNAIL_TYPES,
  VIDEO_MAX_BYTES,
  VIDEO_TYPES,
} from "@contract";

export type UploadKind = "thumbnail" | "video" | "logo" | "package";

/** SPEC section 9 limits per kind, from the contract the server enforces too. */
export const UPLOAD_RULES = {
  thumbnail: {
    maxBytes: THUMBNAIL_MAX_BYTES,
    types: [...THUMBNAIL_TYPES],
    hint: "JPEG, PNG, WebP or GIF, up to 5 MB",
    success: "Thumbnail uploaded",
  },
  video: {
    maxBytes: VIDEO_MAX_BYTES,
    types: [...VIDEO_TYPES],
    hint: "MP4, WebM or MOV, up to 500 MB",
    success: "Video uploaded",
  },
  logo: {
    maxBytes: LOGO_MAX_BYTES,
    types: [...LOGO_TYPES],
    hint: `PNG or JPEG, up to 1 MB and ${IMAGE_MAX_SIDE_PX} × ${IMAGE_MAX_SIDE_PX} pixels`,
    success: "Logo uploaded",
  },
  // Browsers name a zip's type variously (or not at all): it is chosen by its ending.
  package: {
    maxBytes: PACKAGE_MAX_BYTES,
    types: [PACKAGE_FILE_EXTENSION],
    hint: "A SCORM or cmi5 package exported as a .zip, up to 500 MB",
    success: "Package uploaded",
  },
} as const satisfies Record<
  UploadKind,
  { maxBytes: number; types: string[]; hint: string; success: string }
>;

/** Toast texts of SPEC section 8 for the upload flow. */
export const UPLOAD_TOASTS = {
  failed: "Upload failed",
  noUploadUrl: "Failed to get upload URL",
  notProcessed: (kind: UploadKind) => `Failed to process uploaded ${kind}`,
} as const;

const units = ["bytes", "KB", "MB", "GB"] as const;

/** "4.2 MB" */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}
