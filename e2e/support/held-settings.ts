import type { Page, Route } from "@playwright/test";

/**
 * Holds the page's GET /api/config back until `release` is called, as a slow connection
 * would: an action taken meanwhile must still go by the portal's settings, not the page's
 * defaults. `answer` serves the request once released (as it is, by default).
 */
export async function holdSettings(
  page: Page,
  url = "**/api/config",
  answer: (route: Route) => Promise<void> = (route) => route.continue(),
): Promise<{ release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await answer(route);
  });
  return { release };
}
