import { describe, expect, it } from "vitest";
import { startedAu } from "../../testing/cmi5";
import { expectErrorBody } from "../../testing/errors";
import { useTestApp } from "../../testing/test-app";

/**
 * xAPI's concurrency control on documents: a write that names the version it read
 * (If-Match) or that it expects none (If-None-Match) is refused once that no longer holds,
 * so two windows of one AU never overwrite each other's state unknowingly.
 */
describe("writing state and agent profile documents under preconditions", () => {
  const ctx = useTestApp();

  const refused = (label: string, response: { statusCode: number; json(): unknown }) =>
    expect([response.statusCode, expectErrorBody(response, label).code], label).toEqual([
      412,
      "xapi.precondition_failed",
    ]);

  it("refuses a write or delete whose If-Match or If-None-Match fails, and keeps the document", async () => {
    const { au } = await startedAu(ctx);
    const json = { "content-type": "application/json" };
    for (const [resource, query] of [
      ["activities/state", au.stateQuery("bookmark")],
      ["agents/profile", { profileId: "notes", agent: JSON.stringify(au.actor) }],
    ] as const) {
      const write = (method: "PUT" | "POST", body: unknown, headers: Record<string, string>) =>
        au.xapi(method, resource, {
          query,
          body: JSON.stringify(body),
          headers: { ...json, ...headers },
        });
      // If-Match on a document not there yet fails; If-None-Match: * creates it.
      refused(
        `${resource}: If-Match, none yet`,
        await write("PUT", { page: 0 }, { "if-match": "*" }),
      );
      expect((await write("PUT", { page: 1 }, { "if-none-match": "*" })).statusCode).toBe(204);
      const read = await au.xapi("GET", resource, { query });
      const etag = read.headers.etag as string;
      expect(etag).toMatch(/^"/);

      refused(
        `${resource}: If-None-Match *`,
        await write("PUT", { page: 2 }, { "if-none-match": "*" }),
      );
      refused(
        `${resource}: If-None-Match tag`,
        await write("PUT", { page: 2 }, { "if-none-match": etag }),
      );
      refused(
        `${resource}: If-Match stale`,
        await write("PUT", { page: 2 }, { "if-match": '"stale"' }),
      );
      refused(
        `${resource}: POST If-Match stale`,
        await write("POST", { page: 2 }, { "if-match": '"stale"' }),
      );
      const deleted = await au.xapi("DELETE", resource, {
        query,
        headers: { "if-match": '"stale"' },
      });
      refused(`${resource}: DELETE If-Match stale`, deleted);
      expect((await au.xapi("GET", resource, { query })).json()).toEqual({ page: 1 });

      // The version read is the version written over.
      expect((await write("PUT", { page: 3 }, { "if-match": etag })).statusCode).toBe(204);
      refused(
        `${resource}: the old tag again`,
        await write("PUT", { page: 4 }, { "if-match": etag }),
      );
      expect((await au.xapi("GET", resource, { query })).json()).toEqual({ page: 3 });
    }
  });
});
