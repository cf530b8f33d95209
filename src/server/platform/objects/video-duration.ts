import type { Readable } from "node:stream";
import { parseStream } from "music-metadata";

/**
 * A video's playing time in seconds, as its container states it (the MP4 or QuickTime movie
 * header, the WebM segment's Duration), read on the server from the uploaded file itself so
 * a module's length can be checked against what the learner will watch. Null when the file
 * does not state a length (a WebM recorded live) or cannot be read: the length then stays
 * unknown rather than guessed.
 */
export async function readVideoDuration(
  stream: Readable,
  file: { contentType: string; size: number },
): Promise<number | null> {
  try {
    const { format } = await parseStream(
      stream,
      { mimeType: file.contentType, size: file.size },
      // The container's header is enough: no scan of the media to count frames.
      { duration: false, skipCovers: true, skipPostHeaders: true },
    );
    const seconds = format.duration;
    return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  } catch {
    return null;
  } finally {
    stream.destroy();
  }
}
