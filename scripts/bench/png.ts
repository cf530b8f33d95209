/**
 * The chart as PNG: headless Chromium (Debian's /usr/bin/chromium, or CHROMIUM_PATH)
 * screenshots the SVG at its own size. Returns null, with the reason, when no browser runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].filter((p): p is string => Boolean(p));

export function svgToPng(svg: string, pngPath: string): string | null {
  const browser = CANDIDATES.find((p) => existsSync(p));
  if (!browser) return "no Chromium found (set CHROMIUM_PATH)";
  const width = Number(/width="(\d+)"/.exec(svg)?.[1] ?? 980);
  const height = Number(/height="(\d+)"/.exec(svg)?.[1] ?? 600);
  const dir = mkdtempSync(join(tmpdir(), "credo-bench-png-"));
  try {
    const page = join(dir, "chart.html");
    writeFileSync(
      page,
      `<!doctype html><html><body style="margin:0;background:#fff">${svg}</body></html>`,
    );
    const result = spawnSync(
      browser,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        // Lets layout and text painting finish before the screenshot (text came out cut).
        "--virtual-time-budget=3000",
        "--force-device-scale-factor=2",
        `--user-data-dir=${join(dir, "profile")}`,
        `--window-size=${width},${height}`,
        `--screenshot=${pngPath}`,
        `file://${page}`,
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    if (!existsSync(pngPath) || statSync(pngPath).size === 0) {
      return `Chromium failed: ${(result.stderr || result.error?.message || "").slice(0, 300)}`;
    }
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
