import { imageSize } from "image-size";
import { IMAGE_MAX_SIDE_PX } from "../../contract";

/**
 * Whether an image's own header gives it sides within IMAGE_MAX_SIDE_PX. Read from the bytes,
 * never decoded: a file of a few kilobytes may declare a picture of gigabytes. False when the
 * header cannot be read.
 */
export function withinImageBounds(bytes: Uint8Array): boolean {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 && width <= IMAGE_MAX_SIDE_PX && height <= IMAGE_MAX_SIDE_PX;
  } catch {
    return false;
  }
}
