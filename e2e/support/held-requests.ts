import type { Page, Route } from "@playwright/test";

/**
 * Holds the page's requests to `url` back until `release` is called, as a slow connection
 * would: what the page shows and does meanwhile (a loading state, an action taken before its
 * settings arrive) is what a person on that connection meets. `answer` serves each request
 * once released (as it is, by default).
 */
export async function holdRequests(
  page: Page,
  url: string | RegExp,
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
