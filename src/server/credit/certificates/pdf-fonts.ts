import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import fontkit from "@pdf-lib/fontkit";
import { type PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";
import type { Typeface } from "./pdf-text";

const require = createRequire(import.meta.url);

/**
 * The font files, all from npm font packages under the SIL Open Font License. Tinos and
 * Arimo keep the widths of Times and Helvetica, so the layout stays as it was with the
 * standard PDF fonts, and they add Greek, Cyrillic and Hebrew. Arabic and CJK come from
 * their own fonts, read only by a document whose text needs them: the Chinese font alone is
 * 10 MB.
 */
const FONT_FILES = {
  serif: () => require.resolve("@expo-google-fonts/tinos/400Regular/Tinos_400Regular.ttf"),
  serifItalic: () =>
    require.resolve("@expo-google-fonts/tinos/400Regular_Italic/Tinos_400Regular_Italic.ttf"),
  sans: () => require.resolve("@expo-google-fonts/arimo/400Regular/Arimo_400Regular.ttf"),
  sansBold: () => require.resolve("@expo-google-fonts/arimo/700Bold/Arimo_700Bold.ttf"),
  // The package exports only its index, so its fonts are found beside it.
  arabic: () => arabicFont("NotoNaskhArabic-Regular.ttf"),
  arabicBold: () => arabicFont("NotoNaskhArabic-Bold.ttf"),
  // Han ideographs (simplified, traditional and Japanese kanji) and kana.
  han: () =>
    require.resolve("@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf"),
  hangul: () =>
    require.resolve("@expo-google-fonts/nanum-gothic/400Regular/NanumGothic_400Regular.ttf"),
  hangulBold: () =>
    require.resolve("@expo-google-fonts/nanum-gothic/700Bold/NanumGothic_700Bold.ttf"),
};
type FontName = keyof typeof FONT_FILES;

const arabicFont = (file: string) =>
  join(dirname(require.resolve("@embedpdf/fonts-arabic")), "..", "fonts", file);

type ParsedFont = ReturnType<typeof fontkit.create>;

/**
 * Each font is read and parsed once per thread (PDFs are drawn on worker threads) and kept:
 * parsing the Chinese font takes longer than drawing a whole certificate.
 */
const loaded = new Map<FontName, { bytes: Uint8Array; font: ParsedFont }>();
const parsedByBytes = new WeakMap<Uint8Array, ParsedFont>();

/** The inside of fontkit's TrueType subset that `padGlyphs` reaches into. */
interface TrueTypeSubset {
  glyf: Uint8Array[];
  offset: number;
  _addGlyph(glyphId: number): number;
}

/**
 * fontkit 1 writes a subset's glyph offsets in the short format (halved) without padding the
 * glyphs to an even length, so each glyph after one of odd length, common in Google's fonts,
 * is read from the wrong place and most letters come out blank. Each glyph gets a zero byte
 * of padding where it needs one, which TrueType allows.
 */
function padGlyphs(font: ParsedFont): ParsedFont {
  const createSubset = font.createSubset.bind(font);
  font.createSubset = () => {
    const subset = createSubset();
    const inside = subset as unknown as TrueTypeSubset;
    const addGlyph = inside._addGlyph.bind(subset);
    inside._addGlyph = (glyphId) => {
      const index = addGlyph(glyphId);
      const data = inside.glyf[index]!;
      if (data.length % 2) {
        // Of fontkit's own buffer type: its output stream takes no other.
        const padded = (data.constructor as typeof Buffer).alloc(data.length + 1);
        padded.set(data);
        inside.glyf[index] = padded;
        inside.offset += 1;
      }
      return index;
    };
    return subset;
  };
  return font;
}

function load(name: FontName) {
  let font = loaded.get(name);
  if (!font) {
    const bytes = new Uint8Array(readFileSync(FONT_FILES[name]()));
    font = { bytes, font: padGlyphs(fontkit.create(bytes)) };
    loaded.set(name, font);
    parsedByBytes.set(bytes, font.font);
  }
  return font;
}

/** Hands pdf-lib the fonts parsed (and patched) already, instead of parsing them again. */
const cachedFontkit: Parameters<PDFDocument["registerFontkit"]>[0] = {
  create: (bytes, postscriptName) =>
    parsedByBytes.get(bytes) ?? padGlyphs(fontkit.create(bytes, postscriptName)),
};

/**
 * The fonts for scripts the main faces lack, in the order they are tried, each drawing only
 * its own script and the spaces and punctuation within it. Nanum Gothic draws Hangul alone:
 * fontkit cannot subset its space glyphs.
 */
const FALLBACKS = [
  {
    regular: "arabic",
    bold: "arabicBold",
    draws: /[\p{scx=Arabic}\p{Script=Common}\p{Script=Inherited}]/u,
  },
  {
    // Its bold would be another 10 MB to read: bold Chinese and Japanese text is drawn regular.
    regular: "han",
    bold: "han",
    draws: /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{Script=Common}\p{Script=Inherited}]/u,
  },
  { regular: "hangul", bold: "hangulBold", draws: /\p{Script=Hangul}/u },
] as const satisfies readonly { regular: FontName; bold: FontName; draws: RegExp }[];
type Fallback = (typeof FALLBACKS)[number];

const fallbackCovers = (fallback: Fallback, font: FontName, codePoint: number) =>
  fallback.draws.test(String.fromCodePoint(codePoint)) &&
  load(font).font.hasGlyphForCodePoint(codePoint);
const MAIN_FONTS = ["serif", "serifItalic", "sans", "sansBold"] as const satisfies FontName[];

/** The characters Courier can draw (its WinAnsi encoding), the same in every document. */
let courierChars: Set<number> | undefined;

/** Which fallback fonts the text needs: those with a character the main faces lack. */
function fallbacksFor(text: string) {
  const needed = new Set<Fallback>();
  const seen = new Set<number>();
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint < 0x80 || seen.has(codePoint)) continue;
    seen.add(codePoint);
    if (MAIN_FONTS.every((name) => load(name).font.hasGlyphForCodePoint(codePoint))) continue;
    const fallback = FALLBACKS.find((f) => fallbackCovers(f, f.regular, codePoint));
    if (fallback) needed.add(fallback);
  }
  return FALLBACKS.filter((f) => needed.has(f));
}

type FaceName = "serif" | "serifItalic" | "sans" | "sansBold" | "mono";

/**
 * Embeds the faces a document draws with, each a subset of only the glyphs it uses. `text`
 * is all the variable text the document will draw (names, titles): it decides which fonts
 * for other scripts are embedded, so a document without Chinese never reads the CJK font.
 * Only the faces named are embedded: each one costs time when the document is saved.
 * `mono` is Courier, built into every reader, for codes and addresses.
 */
export async function embedPdfFonts<F extends FaceName>(
  doc: PDFDocument,
  text: string,
  faces: readonly F[],
): Promise<Record<F, Typeface>> {
  doc.registerFontkit(cachedFontkit);
  const embedded = new Map<FontName, Promise<PDFFont>>();
  const embed = async (name: FontName, covers: (codePoint: number) => boolean) => {
    let font = embedded.get(name);
    if (!font) {
      // pdf-lib places glyphs by their advance widths alone, so the positioning features
      // (kerning, mark placement) would only cost time on every measure and draw.
      const features = { kern: false, mark: false, mkmk: false, curs: false };
      font = doc.embedFont(load(name).bytes, { subset: true, features });
      embedded.set(name, font);
    }
    return { font: await font, covers };
  };
  const fallbacks = fallbacksFor(text);
  const face = async (name: Exclude<FaceName, "mono">): Promise<Typeface> => ({
    fonts: await Promise.all([
      embed(name, (codePoint) => load(name).font.hasGlyphForCodePoint(codePoint)),
      ...fallbacks.map((f) => {
        const fallback = name === "sansBold" ? f.bold : f.regular;
        return embed(fallback, (codePoint) => fallbackCovers(f, fallback, codePoint));
      }),
    ]),
  });
  const mono = async (): Promise<Typeface> => {
    const courier = await doc.embedFont(StandardFonts.Courier);
    courierChars ??= new Set(courier.getCharacterSet());
    const covered = courierChars;
    return {
      fonts: [
        { font: courier, covers: (codePoint) => covered.has(codePoint) },
        ...(await face("sans")).fonts,
      ],
    };
  };
  const entries = await Promise.all(
    faces.map(async (name) => [name, await (name === "mono" ? mono() : face(name))] as const),
  );
  return Object.fromEntries(entries) as Record<F, Typeface>;
}
