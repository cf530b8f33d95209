import type { PDFFont, PDFPage, RGB } from "pdf-lib";
import { creditLines, type DateFormat } from "../../../contract";

/** One font of a typeface, with the characters it has glyphs for. */
interface FaceFont {
  readonly font: PDFFont;
  covers(codePoint: number): boolean;
}

/**
 * A typeface as drawn: its own font first, then fonts for the scripts it lacks (Arabic,
 * CJK). Each character is drawn with the first font that has it.
 */
export interface Typeface {
  readonly fonts: readonly FaceFont[];
}

/** A stretch of text drawn with one font, in the order it appears on the page. */
interface Run {
  text: string;
  font: PDFFont;
}

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
const splitGraphemes = (text: string) => Array.from(graphemes.segment(text), (s) => s.segment);

/**
 * One line of plain text: composed accents (a name typed as "e" + combining accent draws
 * like "é"), whitespace collapsed, and control and bidi formatting characters dropped, since
 * the line is laid out here and fonts have no glyph for them. Isolates stay for the layout.
 */
const cleanText = (text: string) =>
  text
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .replace(/[\p{Cc}\u061c\u200e\u200f\u202a-\u202e]/gu, "");

const [LRI, RLI, FSI, PDI] = ["\u2066", "\u2067", "\u2068", "\u2069"];
const isIsolateMark = (char: string) => char >= LRI && char <= PDI;

/**
 * Marks text put into a sentence (a category, an issuer's name) as a unit with its own
 * direction: an Arabic category then reads right to left in place, and the English sentence
 * around it stays left to right.
 */
export const isolate = (text: string) => `${FSI}${text}${PDI}`;

/** The credit lines of a certificate or transcript entry, each field in them an isolate. */
export function isolatedCreditLines(
  c: Parameters<typeof creditLines>[0],
  dateFormat?: DateFormat,
): string[] {
  const field = (value: string | null) => (value ? isolate(value) : value);
  return creditLines(
    {
      ...c,
      credits: c.credits.map((credit) => ({
        text: isolate(credit.text),
        accreditingBody: field(credit.accreditingBody),
        providerNumber: field(credit.providerNumber),
      })),
    },
    dateFormat,
  );
}

// Text direction, after the Unicode bidirectional algorithm (UAX #9) with isolates but no
// explicit embeddings: enough for names and titles that mix a right-to-left script with others.
type BidiClass = "L" | "R" | "AL" | "EN" | "AN" | "CS" | "ES" | "ET" | "NSM" | "N";

const ARABIC_LETTERS = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}]/u;
const HEBREW_LETTERS = /[\p{Script=Hebrew}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;
const ARABIC_DIGITS = /[\u0660-\u0669\u066b\u066c]/u;

function bidiClass(char: string): BidiClass {
  if (/\p{M}/u.test(char)) return "NSM";
  if (ARABIC_DIGITS.test(char)) return "AN";
  if (/\p{Nd}/u.test(char)) return "EN";
  if (ARABIC_LETTERS.test(char)) return "AL";
  if (HEBREW_LETTERS.test(char)) return "R";
  if (/\p{L}/u.test(char)) return "L";
  if (/[,.:/\u00a0]/.test(char)) return "CS";
  if (/[+-]/.test(char)) return "ES";
  if (/[#$%°\u00a2-\u00a5\u2030\u20a0-\u20cf]/.test(char)) return "ET";
  return "N";
}

/** Where the isolate opened at `start` closes: its PDI, or the end of the text. */
function isolateEnd(chars: readonly string[], start: number): number {
  let depth = 0;
  for (let i = start; i < chars.length; i += 1) {
    if (chars[i] === PDI) depth -= 1;
    else if (isIsolateMark(chars[i]!)) depth += 1;
    if (depth === 0) return i;
  }
  return chars.length;
}

/** The direction of the first letter outside isolates, which sets a paragraph's direction. */
function firstStrong(chars: readonly string[]): "L" | "R" | undefined {
  for (let i = 0; i < chars.length; i += 1) {
    if (isIsolateMark(chars[i]!) && chars[i] !== PDI) {
      i = isolateEnd(chars, i);
      continue;
    }
    const t = bidiClass(chars[i]!);
    if (t === "L") return "L";
    if (t === "R" || t === "AL") return "R";
  }
  return undefined;
}

/**
 * The embedding level of each character (even: left to right, odd: right to left) in text
 * at `level`. An isolate counts as one neutral character here and is resolved on its own.
 */
function bidiLevels(chars: readonly string[], level: number): number[] {
  const levels: number[] = chars.map(() => level);
  const at: number[] = [];
  const types: BidiClass[] = [];
  for (let i = 0; i < chars.length; i += 1) {
    const char = chars[i]!;
    if (isIsolateMark(char) && char !== PDI) {
      const end = isolateEnd(chars, i);
      const inner = chars.slice(i + 1, end);
      const rtl = char === RLI || (char === FSI && firstStrong(inner) === "R");
      const innerLevel = level + (rtl === (level % 2 === 1) ? 2 : 1);
      bidiLevels(inner, innerLevel).forEach((l, j) => {
        levels[i + 1 + j] = l;
      });
      at.push(i);
      types.push("N");
      i = end;
      continue;
    }
    at.push(i);
    types.push(char === PDI ? "N" : bidiClass(char));
  }

  const outside: BidiClass = level % 2 ? "R" : "L";
  const n = types.length;
  // W1: a combining mark takes the class of the character it sits on.
  for (let i = 0; i < n; i += 1) if (types[i] === "NSM") types[i] = i ? types[i - 1]! : outside;
  // W2, W3: European digits after Arabic letters are Arabic numbers; Arabic letters are R.
  let strong: BidiClass = outside;
  for (let i = 0; i < n; i += 1) {
    const t = types[i]!;
    if (t === "L" || t === "R" || t === "AL") strong = t;
    else if (t === "EN" && strong === "AL") types[i] = "AN";
  }
  for (let i = 0; i < n; i += 1) if (types[i] === "AL") types[i] = "R";
  // W4: one separator between two numbers belongs to them (1,000 and 2.5).
  for (let i = 1; i < n - 1; i += 1) {
    const [before, t, after] = [types[i - 1], types[i], types[i + 1]];
    if (before === "EN" && after === "EN" && (t === "CS" || t === "ES")) types[i] = "EN";
    else if (before === "AN" && after === "AN" && t === "CS") types[i] = "AN";
  }
  // W5: currency and percent signs next to European digits belong to them.
  for (let i = 0; i < n; i += 1) {
    if (types[i] !== "ET") continue;
    let end = i;
    while (end < n && types[end] === "ET") end += 1;
    if (types[i - 1] === "EN" || types[end] === "EN") types.fill("EN", i, end);
    i = end - 1;
  }
  // W6, W7: other separators are neutral; digits after Latin text are Latin text.
  strong = outside;
  for (let i = 0; i < n; i += 1) {
    const t = types[i]!;
    if (t === "CS" || t === "ES" || t === "ET") types[i] = "N";
    else if (t === "L" || t === "R") strong = t;
    else if (t === "EN" && strong === "L") types[i] = "L";
  }
  // N1, N2: neutrals between text of one direction take it, others the surrounding one.
  // Numbers count as right-to-left text here.
  const direction = (t: BidiClass): BidiClass => (t === "L" ? "L" : "R");
  for (let i = 0; i < n; i += 1) {
    if (types[i] !== "N") continue;
    let end = i;
    while (end < n && types[end] === "N") end += 1;
    const before = i ? direction(types[i - 1]!) : outside;
    const after = end < n ? direction(types[end]!) : outside;
    types.fill(before === after ? before : outside, i, end);
    i = end - 1;
  }
  // I1, I2.
  types.forEach((t, k) => {
    const i = at[k]!;
    if (isIsolateMark(chars[i]!)) return;
    if (level % 2 === 0) levels[i] = t === "L" ? level : t === "R" ? level + 1 : level + 2;
    else levels[i] = t === "R" ? level : level + 1;
  });
  return levels;
}

/** Paired punctuation that faces the other way inside right-to-left text. */
const MIRRORED: Record<string, string> = Object.fromEntries(
  ["()", "[]", "{}", "<>", "«»", "‹›"].flatMap(([a, b]) => [
    [a, b],
    [b, a],
  ]),
);

/** Whether fontkit lays the text out right to left: it goes by the first script it meets. */
const laidOutRtl = (text: string) => {
  const first = /[^\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u.exec(text);
  return first !== null && (ARABIC_LETTERS.test(first[0]) || HEBREW_LETTERS.test(first[0]));
};

/**
 * Splits one line into runs of one font and one direction, in the order they appear on the
 * page. Each letter goes to the first font of the face that has it.
 */
function textRuns(line: string, face: Typeface): Run[] {
  const all = splitGraphemes(cleanText(line));
  const firstChars = all.map((c) => [...c][0]!);
  const allLevels = bidiLevels(firstChars, firstStrong(firstChars) === "R" ? 1 : 0);
  // The isolate marks have done their work: they are not drawn.
  const shown = all.map((_, i) => i).filter((i) => !isIsolateMark(firstChars[i]!));
  const clusters = shown.map((i) => all[i]!);
  const levels = shown.map((i) => allLevels[i]!);
  if (!clusters.length) return [];
  const isLetter = clusters.map((c) => /\p{L}/u.test(c));
  const covering = clusters.map((cluster) => {
    const codePoints = [...cluster].map((c) => c.codePointAt(0)!);
    return (
      face.fonts.find((f) => codePoints.every((cp) => f.covers(cp))) ??
      face.fonts.find((f) => f.covers(codePoints[0]!)) ??
      face.fonts[0]!
    );
  });
  // Spaces, digits and punctuation between two letters of one font take that font too, so a
  // run of Arabic or Chinese words stays one run; elsewhere they take the face's own font.
  const letterFont = (from: number, step: number) => {
    for (let i = from; i >= 0 && i < clusters.length; i += step) {
      if (isLetter[i]) return covering[i];
    }
    return undefined;
  };
  const fonts = clusters.map((cluster, i) => {
    if (isLetter[i]) return covering[i]!;
    const around = letterFont(i - 1, -1);
    const codePoints = [...cluster].map((c) => c.codePointAt(0)!);
    return around && around === letterFont(i + 1, 1) && codePoints.every((cp) => around.covers(cp))
      ? around
      : covering[i]!;
  });

  const runs: { clusters: string[]; font: FaceFont; level: number }[] = [];
  clusters.forEach((cluster, i) => {
    const last = runs.at(-1);
    const level = levels[i]!;
    const mirrored = level % 2 ? (MIRRORED[cluster] ?? cluster) : cluster;
    if (last && last.font === fonts[i] && last.level === level) last.clusters.push(mirrored);
    else runs.push({ clusters: [mirrored], font: fonts[i]!, level });
  });

  // L2: from the highest level down to the lowest odd one, reverse each stretch at or above.
  const maxLevel = Math.max(...runs.map((r) => r.level));
  const minOdd = Math.min(...runs.map((r) => r.level).filter((l) => l % 2), maxLevel + 1);
  for (let level = maxLevel; level >= minOdd; level -= 1) {
    for (let i = 0; i < runs.length; i += 1) {
      if (runs[i]!.level < level) continue;
      let end = i;
      while (end < runs.length && runs[end]!.level >= level) end += 1;
      runs.splice(i, end - i, ...runs.slice(i, end).reverse());
      i = end;
    }
  }

  return runs.map((run) => {
    // fontkit shapes Arabic and lays out right-to-left scripts in visual order itself; a
    // run whose direction it would get wrong (digits in Arabic text, brackets between
    // Arabic words) is handed to it reversed.
    const text = run.clusters.join("");
    const rtl = run.level % 2 === 1;
    return {
      text: rtl === laidOutRtl(text) ? text : run.clusters.toReversed().join(""),
      font: run.font.font,
    };
  });
}

/**
 * Each line's runs and each run's width, worked out once per document: a line is measured
 * before it is drawn, and a wrapped text measures each word as it goes.
 */
const runsByFace = new WeakMap<Typeface, Map<string, Run[]>>();
const widthsByFont = new WeakMap<PDFFont, Map<string, number>>();

/** The value kept under `key`, worked out the first time it is asked for. */
function kept<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

const runsOf = (line: string, face: Typeface): Run[] =>
  kept(
    kept(runsByFace, face, () => new Map()),
    line,
    () => textRuns(line, face),
  );

const runWidth = (run: Run, size: number): number =>
  kept(
    kept(widthsByFont, run.font, () => new Map()),
    run.text,
    () => run.font.widthOfTextAtSize(run.text, 1),
  ) * size;

/** The width of one line of text at this size. */
export function textWidth(text: string, face: Typeface, size: number): number {
  return runsOf(text, face).reduce((sum, run) => sum + runWidth(run, size), 0);
}

/** Draws one line of text from (x, y), each run with its own font. */
export function drawText(
  page: PDFPage,
  text: string,
  options: { x: number; y: number; size: number; font: Typeface; color: RGB },
) {
  let x = options.x;
  for (const run of runsOf(text, options.font)) {
    page.drawText(run.text, {
      x,
      y: options.y,
      size: options.size,
      font: run.font,
      color: options.color,
    });
    x += runWidth(run, options.size);
  }
}

/** Draws one line of text centred on `centerX`. */
export function drawCentered(
  page: PDFPage,
  text: string,
  options: { y: number; size: number; font: Typeface; color: RGB; centerX: number },
) {
  const width = textWidth(text, options.font, options.size);
  drawText(page, text, { ...options, x: options.centerX - width / 2 });
}

const CJK = "\\p{Ideographic}\\p{Script=Hiragana}\\p{Script=Katakana}ー";
/**
 * Where a line may break: at spaces, and between Chinese and Japanese characters, which are
 * written without them. Opening brackets stay with the character after them and closing
 * punctuation with the one before.
 */
const BREAKABLE = new RegExp(
  ` |[「『（《〈【]*[${CJK}][、。，．！？：；）」』》〉】]*|[^ ${CJK}]+`,
  "gu",
);

/**
 * Splits text into lines no wider than `width` at this size. Widths add up word by word
 * (pdf-lib draws no kerning), so each word is measured once.
 */
export function wrapText(text: string, face: Typeface, size: number, width: number): string[] {
  const lines: string[] = [];
  const spaceWidth = textWidth(" ", face, size);
  let [line, lineWidth, space] = ["", 0, false];
  for (const token of cleanText(text).match(BREAKABLE) ?? []) {
    if (token === " ") {
      space = line !== "";
      continue;
    }
    const tokenWidth = textWidth(token, face, size);
    const gap = space ? spaceWidth : 0;
    if (line && lineWidth + gap + tokenWidth > width) {
      lines.push(line);
      [line, lineWidth] = [token, tokenWidth];
    } else {
      line += space ? ` ${token}` : token;
      lineWidth += gap + tokenWidth;
    }
    space = false;
  }
  if (line) lines.push(line);
  // A single word wider than the line is cut rather than drawn over the margin.
  return lines.map((l) => {
    if (textWidth(l, face, size) <= width) return l;
    const letters = splitGraphemes(l);
    // The most letters that fit before the ellipsis, found by halving; at least one.
    let [fits, tooMany] = [1, letters.length];
    while (tooMany - fits > 1) {
      const middle = Math.floor((fits + tooMany) / 2);
      const cut = `${letters.slice(0, middle).join("")}…`;
      if (textWidth(cut, face, size) <= width) fits = middle;
      else tooMany = middle;
    }
    return `${letters.slice(0, fits).join("")}…`;
  });
}
