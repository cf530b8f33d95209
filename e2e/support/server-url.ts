/**
 * Where the browser tests find the test server: E2E_BASE_URL, else 127.0.0.1 on E2E_PORT
 * (default 5055). playwright.config.ts starts the server on this URL's port.
 */
export const SERVER_URL =
  process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? "5055"}`;

/**
 * The portal of the tests whose figures cover the whole portal (tagged @whole-portal): a
 * server of its own, so that nobody else's tests change its totals while they run beside
 * them. E2E_WHOLE_PORTAL_URL, else 127.0.0.1 two ports after SERVER_URL's (the port between
 * is the first portal's content origin, see CONTENT_PORT).
 */
export const WHOLE_PORTAL_URL =
  process.env.E2E_WHOLE_PORTAL_URL ??
  `http://127.0.0.1:${Number(new URL(SERVER_URL).port || "80") + 2}`;
