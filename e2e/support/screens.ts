import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import axe from "axe-core";

/**
 * axe's source, run only where the page has no axe yet. The builder injects its source twice
 * per check (about 0.3 s of parsing and set-up each on this machine); a single-page app keeps
 * the first copy across its screens, so later checks on the same document skip both.
 */
const AXE_ONCE_PER_DOCUMENT = `if (typeof window.axe === "undefined") {\n${axe.source}\n}`;

/**
 * What the builder injects into a page that already has axe: a statement that does nothing,
 * so the half megabyte above is not even sent (a check then takes about a third of the time).
 * A page with frames (a package's player) gets the whole source for the builder's frames.
 */
const AXE_ALREADY_THERE = "void 0";

async function axeSourceFor(page: Page): Promise<string> {
  if (page.frames().length > 1) return AXE_ONCE_PER_DOCUMENT;
  const present = await page.evaluate(() => typeof (window as { axe?: unknown }).axe);
  return present === "undefined" ? AXE_ONCE_PER_DOCUMENT : AXE_ALREADY_THERE;
}

export const SCREENSHOT_DIR = "test-results/screenshots";

/** What a check leaves out: `exclude` names elements whose content the portal does not make. */
type ScreenOptions = { exclude?: string[] };

/**
 * Saves a full-page screenshot to test-results/screenshots/<name>.png and checks the page
 * with axe: no serious or critical accessibility violations are allowed. A package's own
 * content (its frame) is left out with `exclude`: the portal checks its frame, not the
 * provider's pages.
 */
export async function screen(page: Page, name: string, options: ScreenOptions = {}): Promise<void> {
  // Let web fonts and colour transitions (a checkbox just ticked, a hover just left)
  // settle, so screenshots and axe's contrast checks see the final colours.
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await page.screenshot({
    path: `${SCREENSHOT_DIR}/${name}.png`,
    fullPage: true,
    // Long lists skip laying out cards off screen until scrolled to (content-visibility:
    // auto): a full-page picture would show those as blank cards, which a person never sees.
    style: "* { content-visibility: visible !important; }",
  });
  await expectNoSeriousA11yViolations(page, name, options);
}

/**
 * The screen at desktop width (1280, saved as `<name>`) and at phone width (390, saved as
 * `<name>-390`), each from the top and checked with axe; the page is left at desktop width.
 */
export async function screensAtBothWidths(
  page: Page,
  name: string,
  options: ScreenOptions = {},
): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screen(page, name, options);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await screen(page, `${name}-390`, options);
  await page.setViewportSize({ width: 1280, height: 800 });
}

export async function expectNoSeriousA11yViolations(
  page: Page,
  name = "page",
  options: ScreenOptions = {},
): Promise<void> {
  // Legacy mode runs axe inside the page itself. The default opens a blank page per check to
  // merge frame results, which doubles each check's time, and the portal has no cross-origin
  // frames that would need it. Only violations are read: axe then describes one node of each
  // passed rule instead of every node, which is most of a check's time on a long page.
  const axeSource = await axeSourceFor(page);
  let builder = new AxeBuilder({ page, axeSource }).setLegacyMode(true);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const results = await builder.options({ resultTypes: ["violations"] }).analyze();
  const serious = results.violations.filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
  const summary = serious.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
  expect(summary, `accessibility violations on ${name}`).toEqual([]);
}
