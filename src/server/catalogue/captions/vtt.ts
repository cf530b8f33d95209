/**
 * A WebVTT checker (https://www.w3.org/TR/webvtt1/), strict where a browser would silently
 * drop captions: the signature, cue timings and their order. A browser that meets a bad
 * timing skips that cue without a word, so the learner misses a line of dialogue; refusing
 * the file at upload, naming the line, is the only moment anyone can fix it.
 */

export type VttResult =
  | { ok: true; text: string; cues: number }
  | { ok: false; message: string; line?: number };

const TIMESTAMP = /^(?:(\d{2,}):)?([0-5]\d):([0-5]\d)\.(\d{3})$/;

/**
 * A cue timing line's start and end (`start --> end`, then any cue settings after a space or
 * tab), or null. Read in one pass: a pattern with a lazy start backtracked over every "-->"
 * of a long line, holding the portal for seconds on a file of a few kilobytes.
 */
export function timingOf(line: string): { start: string; end: string } | null {
  const arrow = line.indexOf("-->");
  if (arrow < 0) return null;
  const start = line.slice(0, arrow).replace(/[ \t]+$/, "");
  const rest = line.slice(arrow + 3).replace(/^[ \t]+/, "");
  const endLength = rest.search(/\s/);
  const end = endLength < 0 ? rest : rest.slice(0, endLength);
  const settings = endLength < 0 ? "" : rest.slice(endLength);
  if (!start || /\s/.test(start) || !end) return null;
  if (settings && !/^[ \t]/.test(settings)) return null;
  if (/[\r\u2028\u2029]/.test(settings)) return null;
  return { start, end };
}

/** Milliseconds of a WebVTT timestamp (`hh:mm:ss.ttt` or `mm:ss.ttt`), or null. */
export function parseTimestamp(value: string): number | null {
  const match = TIMESTAMP.exec(value);
  if (!match) return null;
  const [, hours, minutes, seconds, millis] = match;
  return (
    ((Number(hours ?? 0) * 60 + Number(minutes)) * 60 + Number(seconds)) * 1000 + Number(millis)
  );
}

/** Checks the bytes of a caption file; on success, its text without a byte-order mark. */
export function validateVtt(bytes: Uint8Array): VttResult {
  const badByteLine = firstInvalidUtf8Line(bytes);
  if (badByteLine !== null) {
    return fail(badByteLine, "the file is not UTF-8 text. Save it with UTF-8 encoding.");
  }
  const text = new TextDecoder("utf-8").decode(bytes).replace(/^\uFEFF/, "");
  const lines = text.split(/\r\n|\r|\n/);
  const nul = lines.findIndex((line) => line.includes("\u0000"));
  if (nul >= 0) return fail(nul + 1, "contains a NUL character.");
  if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? "")) {
    return fail(1, 'a WebVTT file must start with "WEBVTT".');
  }

  let cues = 0;
  let previousStart = -1;
  let i = 1;
  // The header's text runs to the first blank line.
  while (i < lines.length && lines[i] !== "") {
    if (lines[i]!.includes("-->")) {
      return fail(i + 1, 'leave a blank line between the "WEBVTT" header and the first cue.');
    }
    i++;
  }
  while (i < lines.length) {
    while (i < lines.length && lines[i] === "") i++;
    if (i >= lines.length) break;
    const blockStart = i;
    const block: string[] = [];
    while (i < lines.length && lines[i] !== "") block.push(lines[i++]!);

    const first = block[0]!;
    if (/^NOTE(?:[ \t]|$)/.test(first)) {
      const arrow = block.findIndex((line) => line.includes("-->"));
      if (arrow >= 0) return fail(blockStart + arrow + 1, 'a NOTE must not contain "-->".');
      continue;
    }
    // STYLE and REGION blocks before the first cue style the captions; browsers ignore
    // them elsewhere, so they are kept as written.
    if (cues === 0 && /^(?:STYLE|REGION)[ \t]*$/.test(first)) continue;

    const timingIndex = first.includes("-->") ? 0 : 1;
    const timing = block[timingIndex];
    const timingLine = blockStart + timingIndex + 1;
    if (timing === undefined || !timing.includes("-->")) {
      // "00:02.000 -> 00:03.000" is a mistyped timing rather than a cue's name.
      if (/^\d+:\d\d/.test(first)) return fail(blockStart + 1, notATiming(first));
      return fail(
        timingLine,
        `expected a cue timing such as "00:00:01.000 --> 00:00:04.000" after the cue identifier "${clip(first)}".`,
      );
    }
    const match = timingOf(timing);
    const start = match ? parseTimestamp(match.start) : null;
    const end = match ? parseTimestamp(match.end) : null;
    if (start === null || end === null) {
      return fail(timingLine, notATiming(timing));
    }
    if (end <= start) {
      return fail(
        timingLine,
        `the cue ends at ${match!.end}, which is not after its start ${match!.start}.`,
      );
    }
    if (start < previousStart) {
      return fail(
        timingLine,
        `the cue starts at ${match!.start}, before the cue above it: cues must be in order of start time.`,
      );
    }
    const stray = block.findIndex((line, index) => index > timingIndex && line.includes("-->"));
    if (stray >= 0) {
      return fail(
        blockStart + stray + 1,
        'cue text must not contain "-->"; is a blank line missing before this cue?',
      );
    }
    previousStart = start;
    cues++;
  }
  if (cues === 0) return { ok: false, message: "The file has no cues: there is nothing to show." };
  return { ok: true, text, cues };
}

function fail(line: number, problem: string): VttResult {
  return { ok: false, line, message: `Line ${line}: ${problem}` };
}

function notATiming(line: string): string {
  return `"${clip(line)}" is not a cue timing. Write hh:mm:ss.ttt --> hh:mm:ss.ttt (or mm:ss.ttt), e.g. "00:01.000 --> 00:04.500".`;
}

function clip(line: string): string {
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/**
 * The 1-based line of the first byte that breaks UTF-8 (overlong forms, surrogates and code
 * points above U+10FFFF included), or null when the bytes are valid UTF-8.
 */
function firstInvalidUtf8Line(bytes: Uint8Array): number | null {
  let line = 1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) line++;
      i++;
      continue;
    }
    let size: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [size, min] = [2, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [size, min] = [3, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [size, min] = [4, 0x10000];
    else return line;
    let code = b & (0xff >> (size + 1));
    for (let k = 1; k < size; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return line;
      code = (code << 6) | (next & 0x3f);
    }
    if (code < min || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return line;
    i += size;
  }
  return null;
}
