import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

/**
 * The browser for the e2e suite: CHROMIUM_PATH, else Debian's Chromium, else Playwright's own
 * download when one is installed, else the Chromium build shipped inside the
 * `@sparticuz/chromium` npm package, so `npm install && npm test` needs nothing installed by
 * hand. `undefined` lets Playwright use its own browser.
 */
export async function chromiumExecutable(): Promise<string | undefined> {
  const local = [process.env.CHROMIUM_PATH, "/usr/bin/chromium"].find(
    (path): path is string => !!path && existsSync(path),
  );
  if (local) return local;
  if (existsSync(chromium.executablePath())) return undefined;
  // Unpacks the brotli-compressed build into the temporary directory once (about 20 s).
  const { default: packaged } = await import("@sparticuz/chromium");
  return packaged.executablePath();
}
