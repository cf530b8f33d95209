import { THUMBNAIL_MAX_BYTES, VIDEO_MAX_BYTES } from "@contract";
import { describe, expect, it } from "vitest";
import { formatBytes, UPLOAD_RULES, UPLOAD_TOASTS } from "./upload-rules";

describe("upload rules", () => {
  it("use the contract's limits (SPEC section 9)", () => {
    expect(UPLOAD_RULES.thumbnail.maxBytes).toBe(THUMBNAIL_MAX_BYTES);
    expect(UPLOAD_RULES.video.maxBytes).toBe(VIDEO_MAX_BYTES);
    expect(UPLOAD_RULES.thumbnail.types).toContain("image/png");
    expect(UPLOAD_RULES.video.types).toContain("video/mp4");
  });

  it("word the failure toasts as SPEC section 8 does", () => {
    expect(UPLOAD_TOASTS.notProcessed("thumbnail")).toBe("Failed to process uploaded thumbnail");
    expect(UPLOAD_TOASTS.notProcessed("video")).toBe("Failed to process uploaded video");
  });

  it("formats sizes", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(7479)).toBe("7.3 KB");
    expect(formatBytes(94_123)).toBe("92 KB");
    expect(formatBytes(5_242_880)).toBe("5.0 MB");
  });
});
