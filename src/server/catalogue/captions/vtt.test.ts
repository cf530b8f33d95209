import { describe, expect, it } from "vitest";
import { parseTimestamp, timingOf, validateVtt } from "./vtt";

const bytes = (text: string) => new TextEncoder().encode(text);
const check = (text: string) => validateVtt(bytes(text));

const SAMPLE = [
  "WEBVTT - Lecture 1",
  "Kind: captions",
  "",
  "NOTE Reviewed by the course team",
  "",
  "STYLE",
  "::cue { color: yellow }",
  "",
  "intro",
  "00:00:01.000 --> 00:00:04.000",
  "Welcome to the course.",
  "",
  "00:04.000 --> 00:06.500 align:start line:90%",
  "<v Ada>Bonjour, ça va ? 日本語も。</v>",
  "",
  "120:00:00.000 --> 120:00:01.000",
  "Long lectures have hours of three digits.",
  "",
].join("\n");

describe("the WebVTT checker", () => {
  it("reads timestamps with and without hours", () => {
    expect(parseTimestamp("00:01.500")).toBe(1500);
    expect(parseTimestamp("01:02:03.004")).toBe(3_723_004);
    expect(parseTimestamp("100:00:00.000")).toBe(360_000_000);
    for (const bad of [
      "1:02.000",
      "00:60.000",
      "60:00.000",
      "00:01.5",
      "00:01,000",
      "0:00:01.000",
      "00:01",
    ]) {
      expect(parseTimestamp(bad), bad).toBeNull();
    }
  });

  it("accepts a well-formed file with header text, notes, styles, identifiers and settings", () => {
    const result = check(SAMPLE);
    expect(result).toEqual({ ok: true, text: SAMPLE, cues: 3 });
  });

  it("accepts a byte-order mark and CRLF or CR line endings, and returns the text without the mark", () => {
    const crlf = `\uFEFF${SAMPLE.replaceAll("\n", "\r\n")}`;
    expect(check(crlf)).toEqual({ ok: true, text: crlf.slice(1), cues: 3 });
    const cr = SAMPLE.replaceAll("\n", "\r");
    expect(check(cr)).toMatchObject({ ok: true, cues: 3 });
    expect(check("WEBVTT\n\n00:00.000-->00:01.000\nno spaces around the arrow")).toMatchObject({
      ok: true,
      cues: 1,
    });
  });

  it("names the first bad line", () => {
    const cases: [string, number, RegExp][] = [
      ["", 1, /must start with "WEBVTT"/],
      ["WEBVTTX\n\n00:00.000 --> 00:01.000\nx", 1, /must start with "WEBVTT"/],
      ["1\n00:00:00,000 --> 00:00:01,000\nAn SRT file", 1, /must start with "WEBVTT"/],
      ["WEBVTT\n00:00.000 --> 00:01.000\nx", 2, /blank line between/],
      [
        "WEBVTT\n\n00:00.000 --> 00:01.000\nok\n\n00:01,000 --> 00:02.000\nbad",
        6,
        /"00:01,000 --> 00:02.000" is not a cue timing/,
      ],
      [
        "WEBVTT\n\n00:00.000 --> 00:01.000 \nok\n\n00:02.000 -> 00:03.000\nx",
        6,
        /"00:02.000 -> 00:03.000" is not a cue timing/,
      ],
      ["WEBVTT\n\nid\nnot a timing\ntext", 4, /after the cue identifier "id"/],
      [
        "WEBVTT\n\n00:05.000 --> 00:05.000\nx",
        3,
        /ends at 00:05.000, which is not after its start 00:05.000/,
      ],
      ["WEBVTT\n\n00:05.000 --> 00:04.000\nx", 3, /not after its start/],
      [
        "WEBVTT\n\n00:05.000 --> 00:06.000\nx\n\n00:01.000 --> 00:02.000\ny",
        6,
        /in order of start time/,
      ],
      [
        "WEBVTT\n\n00:01.000 --> 00:02.000\ntext\n00:02.000 --> 00:03.000\nnext",
        5,
        /blank line missing/,
      ],
      ["WEBVTT\n\nNOTE a --> b\n\n00:01.000 --> 00:02.000\nx", 3, /NOTE must not contain/],
      ["WEBVTT\n\n00:01.000 --> 00:02.000\nnul \u0000 here", 4, /NUL/],
      ["WEBVTT\n\n00:01.000 --> 00:02.00099\nx", 3, /is not a cue timing/],
    ];
    for (const [text, line, message] of cases) {
      const result = check(text);
      expect(result.ok, text).toBe(false);
      if (result.ok) continue;
      expect(result.line, text).toBe(line);
      expect(result.message, text).toMatch(new RegExp(`^Line ${line}: `));
      expect(result.message, text).toMatch(message);
    }
  });

  it("reads a cue timing line as the WebVTT pattern does, in one pass", () => {
    // The pattern timing lines were read by, kept as the reference for what they mean.
    const pattern = /^(\S+?)[ \t]*-->[ \t]*(\S+)(?:[ \t]+.*)?$/;
    const byPattern = (line: string) => {
      const match = pattern.exec(line);
      return match ? { start: match[1], end: match[2] } : null;
    };
    for (const line of [
      "00:00:01.000 --> 00:00:04.000",
      "00:01.000-->00:02.000",
      "00:01.000 \t--> \t00:02.000 align:start line:90%",
      "00:01.000 --> 00:02.000\tposition:10%",
      "00:01.000 --> 00:02.000 ",
      "a-->b-->c",
      "x y --> 00:02.000",
      " 00:01.000 --> 00:02.000",
      "00:01.000 -->",
      "--> 00:02.000",
      "00:01.000 --> 00:02.000\u000bsize:50%",
      "00:01.000 --> 00:02.000 \u000b",
      "00:01.000 -> 00:02.000",
    ]) {
      expect(timingOf(line), JSON.stringify(line)).toEqual(byPattern(line));
    }
  });

  it("refuses a timing line of thousands of arrows as any other bad timing", () => {
    // Such a line held the pattern above for seconds: read in one pass, it is refused at once.
    const arrows = `WEBVTT\n\n${"-->".repeat(32_000)}\u000b\nHello\n`;
    const result = check(arrows);
    expect(result).toMatchObject({ ok: false, line: 3 });
  });

  it("refuses a file without cues", () => {
    expect(check("WEBVTT\n\nNOTE only a note\n")).toEqual({
      ok: false,
      message: "The file has no cues: there is nothing to show.",
    });
  });

  it("refuses bytes that are not UTF-8, naming their line", () => {
    const head = bytes("WEBVTT\n\n00:01.000 --> 00:02.000\n");
    const latin1 = new Uint8Array([...head, 0x63, 0x61, 0x66, 0xe9, 0x0a]); // "café" in Latin-1
    expect(validateVtt(latin1)).toMatchObject({
      ok: false,
      line: 4,
      message: /^Line 4: the file is not UTF-8/,
    });
    for (const bad of [
      [0xc0, 0xaf], // overlong "/"
      [0xed, 0xa0, 0x80], // a UTF-16 surrogate
      [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
      [0xe2, 0x82], // cut short at the end
    ]) {
      expect(validateVtt(new Uint8Array([...head, ...bad])), bad.join(",")).toMatchObject({
        ok: false,
        line: 4,
      });
    }
    // CRLF counts as one line break.
    const crlf = new Uint8Array([...bytes("WEBVTT\r\n\r\n"), 0xff]);
    expect(validateVtt(crlf)).toMatchObject({ ok: false, line: 3 });
  });
});
