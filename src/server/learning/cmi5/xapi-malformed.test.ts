import { describe, expect, it } from "vitest";
import { startedAu, statementsOf } from "../../testing/cmi5";
import { expectErrorBody } from "../../testing/errors";
import { useTestApp } from "../../testing/test-app";

/** What is not xAPI, or not what the LRS can keep, is a bad request: never a crash. */
describe("an AU's malformed xAPI requests", () => {
  const ctx = useTestApp();

  const badRequest = (label: string, response: { statusCode: number; json(): unknown }) =>
    expect([response.statusCode, expectErrorBody(response, label).code], label).toEqual([
      400,
      "xapi.invalid_request",
    ]);

  it("refuses statement ids that are not UUIDs, and cursors past any statement", async () => {
    const { au } = await startedAu(ctx);
    const get = await au.xapi("GET", "statements", { query: { statementId: "not-a-uuid" } });
    badRequest("GET statementId", get);
    const voided = await au.xapi("GET", "statements", { query: { voidedStatementId: "x" } });
    badRequest("GET voidedStatementId", voided);
    const { id: _id, ...unnamed } = au.statement("experienced");
    badRequest(
      "PUT statementId",
      await au.xapi("PUT", "statements", { query: { statementId: "not-a-uuid" }, body: unnamed }),
    );
    badRequest(
      "POST id",
      await au.xapi("POST", "statements", { body: au.statement("experienced", { id: "x" }) }),
    );
    badRequest(
      "cursor",
      await au.xapi("GET", "statements", { query: { cursor: "99999999999999999999999" } }),
    );
  });

  it("refuses text the LRS cannot keep, and a duration past any clock", async () => {
    const { setup, au } = await startedAu(ctx);
    const before = await statementsOf(ctx, setup.adminCookie, au.registration);
    const nul = au.statement("experienced", { result: { response: "a\u0000b" } });
    badRequest("NUL in a statement", await au.send(nul));
    const key = au.statement("experienced", {
      result: { extensions: { "https://example.com/\u0000": 1 } },
    });
    badRequest("NUL in a key", await au.send(key));
    let nested: unknown = "a\u0000b";
    for (let i = 0; i < 50; i++) nested = { x: nested };
    const deep = au.statement("experienced", {
      result: { extensions: { "https://example.com/deep": nested } },
    });
    badRequest("NUL deep inside", await au.send(deep));
    const surrogate = au.statement("experienced", { result: { response: "a\ud800b" } });
    badRequest("a lone surrogate", await au.send(surrogate));
    badRequest(
      "NUL in a state id",
      await au.xapi("PUT", "activities/state", {
        query: au.stateQuery("bookmark\u0000"),
        body: "x",
        headers: { "content-type": "text/plain" },
      }),
    );
    badRequest(
      "NUL in a verb filter",
      await au.xapi("GET", "statements", { query: { verb: "https://example.com/\u0000" } }),
    );
    const endless = au.statement("terminated", {
      result: { duration: `P${"9".repeat(400)}Y` },
    });
    badRequest("a duration past any clock", await au.send(endless));
    expect(await statementsOf(ctx, setup.adminCookie, au.registration)).toHaveLength(before.length);
  });

  it("refuses to merge documents nested past any content's need", async () => {
    const { au } = await startedAu(ctx);
    const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const json = { "content-type": "application/json" };
    const profile = { profileId: "deep", agent: JSON.stringify(au.actor) };
    for (const [resource, query] of [
      ["activities/state", au.stateQuery("deep")],
      ["agents/profile", profile],
    ] as const) {
      const stored = await au.xapi("PUT", resource, { query, body: deep, headers: json });
      expect(stored.statusCode, resource).toBe(204);
      const merged = await au.xapi("POST", resource, { query, body: '{"b":1}', headers: json });
      badRequest(`${resource}: merge into a deep document`, merged);
      const other = { ...query, [resource === "agents/profile" ? "profileId" : "stateId"]: "x" };
      const sent = await au.xapi("POST", resource, { query: other, body: deep, headers: json });
      badRequest(`${resource}: a deep document merged`, sent);
    }
  });

  it("refuses times that name no real moment, in statements and in queries", async () => {
    // A day that never was, a year no database compares, a time on no stated clock.
    const { setup, au } = await startedAu(ctx);
    const before = await statementsOf(ctx, setup.adminCookie, au.registration);
    for (const timestamp of [
      "2026-02-30T10:00:00Z",
      "2026-04-31T10:00:00Z",
      "0000-01-01T00:00:00Z",
    ]) {
      badRequest(
        `timestamp ${timestamp}`,
        await au.send(au.statement("experienced", { timestamp })),
      );
    }
    for (const at of [
      "2026-02-30T10:00:00Z",
      "+200000-01-01T00:00:00Z",
      "2026-03-01T10:00:00",
      "March 1, 2026",
    ]) {
      for (const name of ["since", "until"]) {
        badRequest(`${name} ${at}`, await au.xapi("GET", "statements", { query: { [name]: at } }));
      }
    }
    expect(await statementsOf(ctx, setup.adminCookie, au.registration)).toHaveLength(before.length);
  });
});
