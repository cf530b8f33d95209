const port = Number(process.env.E2E_PORT ?? "5055");

/**
 * Where the browser tests find the test server: E2E_BASE_URL, else 127.0.0.1 on E2E_PORT
 * (default 5055). playwright.config.ts starts the server on this URL's port.
 */
export const SERVER_URL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;

/**
 * A second portal, only for the tests whose figures cover the whole portal's data: nothing
 * else writes to it, so they run beside the others. Each portal serves package content on
 * the port after its own, so this one takes the port after that.
 */
export const WHOLE_PORTAL_URL = `http://127.0.0.1:${port + 2}`;
