import { describe, expect, it } from "vitest";
import { parseXml, without } from "./xml-tree";

describe("reading a manifest's text", () => {
  it("leaves out declarations and comments as the patterns for them do, in one pass", () => {
    // The patterns the spans were removed by, kept as the reference for what they remove.
    const byPattern = (text: string) =>
      text.replace(/<\?[\s\S]*?\?>/g, "").replace(/<!--[\s\S]*?-->/g, "");
    for (const text of [
      '<?xml version="1.0"?><manifest/>',
      "<!-- a --><manifest><!-- b --></manifest><!-- c -->",
      "<?a?><?b?><m/><?unclosed <m/>",
      "<!-- unclosed <m/> <!-- x -->",
      "<?>?><m/>",
      "<!---->x<!--->-->y",
      "<?xml?>\n<!--\n multi\n line -->\n<manifest/>",
      "plain",
      "",
    ]) {
      expect(without(without(text, "<?", "?>"), "<!--", "-->"), JSON.stringify(text)).toBe(
        byPattern(text),
      );
    }
  });

  it("refuses a manifest of thousands of unclosed declarations or comments as any bad XML", () => {
    // Such a manifest, a few hundred bytes zipped, held the patterns for seconds.
    expect(parseXml(`<manifest/>${"<?".repeat(100_000)}`)).toMatchObject({ kind: "invalid" });
    expect(parseXml(`<manifest/>${"<!--".repeat(100_000)}`)).toMatchObject({ kind: "invalid" });
    expect(parseXml(`${"<?".repeat(100_000)}`)).toMatchObject({ kind: "invalid" });
  });
});
