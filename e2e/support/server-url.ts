/**
 * Where the browser tests find the test server: E2E_BASE_URL, else 127.0.0.1 on E2E_PORT
 * (default 5055). playwright.config.ts starts the server on this URL's port.
 */
export const SERVER_URL =
  process.env.E2E_BASE_URL ?? `http://127.0.0.1:${process.env.E2E_PORT ?? "5055"}`;
