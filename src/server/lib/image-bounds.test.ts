import { describe, expect, it } from "vitest";
import { IMAGE_MAX_SIDE_PX } from "../../contract";
import { jpegHeaderOfSize, pngOfSize } from "../testing/images";
import { withinImageBounds } from "./image-bounds";

describe("an image's sides, read from its header", () => {
  it("takes PNGs and JPEGs up to the bound on each side, and nothing past it", () => {
    const most = IMAGE_MAX_SIDE_PX;
    expect(withinImageBounds(pngOfSize(most, most))).toBe(true);
    expect(withinImageBounds(pngOfSize(most + 1, 10))).toBe(false);
    expect(withinImageBounds(pngOfSize(10, most + 1))).toBe(false);
    expect(withinImageBounds(jpegHeaderOfSize(1200, 400))).toBe(true);
    expect(withinImageBounds(jpegHeaderOfSize(most + 1, 400))).toBe(false);
  });

  it("reads a picture of gigabytes from a file of kilobytes without decoding it", () => {
    const bomb = pngOfSize(30_000, 30_000);
    expect(bomb.length).toBeLessThan(150 * 1024);
    expect(withinImageBounds(bomb)).toBe(false);
  });

  it("takes nothing whose header it cannot read", () => {
    expect(withinImageBounds(Buffer.from("not an image"))).toBe(false);
    expect(withinImageBounds(Buffer.alloc(0))).toBe(false);
  });
});
