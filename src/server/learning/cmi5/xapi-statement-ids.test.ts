import { describe, expect, it } from "vitest";
import { startedAu, type TestAuClient } from "../../testing/cmi5";
import { expectErrorBody } from "../../testing/errors";
import { useTestApp } from "../../testing/test-app";

/**
 * A statement's id names it for good: sent again as it was (an AU retrying after a lost
 * answer), it is accepted and kept once; another statement with that id is a conflict. Its
 * stored time is what the query's since and until compare.
 */
describe("a stored statement", () => {
  // The portal's clock, moved by hand where a test needs statements stored apart.
  let at = new Date();
  const ctx = useTestApp({}, { clock: () => at });

  const read = async (au: TestAuClient, id: string) => {
    const response = await au.xapi("GET", "statements", { query: { statementId: id } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Record<string, unknown>;
  };

  it("is accepted again as it was sent, whether or not it named its version", async () => {
    const { au } = await startedAu(ctx);
    const versioned = au.statement("experienced", { version: "1.0.0" });
    const plain = au.statement("experienced");
    for (const statement of [versioned, plain]) {
      expect((await au.send(statement)).statusCode).toBe(204);
      const again = await au.send(statement);
      expect(again.statusCode, again.body).toBe(204);
      const posted = await au.xapi("POST", "statements", { body: [statement] });
      expect([posted.statusCode, posted.json()], posted.body).toEqual([200, [statement.id]]);
    }
    // A statement sent without its version is kept as xAPI's 1.0.0 data model.
    expect((await read(au, versioned.id)).version).toBe("1.0.0");
    expect((await read(au, plain.id)).version).toBe("1.0.0");
  });

  it("is a conflict when sent again saying something else", async () => {
    const { au } = await startedAu(ctx);
    const statement = au.statement("experienced", { version: "1.0.0" });
    expect((await au.send(statement)).statusCode).toBe(204);
    const other = await au.send({ ...statement, result: { response: "changed" } });
    expect([other.statusCode, expectErrorBody(other).code]).toEqual([
      409,
      "xapi.statement_conflict",
    ]);
    expect((await read(au, statement.id)).result).toBeUndefined();
  });

  it("is found by the time it was stored, since and until a moment", async () => {
    const { au } = await startedAu(ctx);
    const first = au.statement("experienced");
    const second = au.statement("experienced");
    at = new Date(at.getTime() + 60_000);
    expect((await au.send(first)).statusCode).toBe(204);
    const between = new Date(at.getTime() + 30_000).toISOString();
    at = new Date(at.getTime() + 60_000);
    expect((await au.send(second)).statusCode).toBe(204);
    const ids = async (query: Record<string, string>) => {
      const response = await au.xapi("GET", "statements", { query });
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { statements: { id: string }[] }).statements.map((s) => s.id);
    };
    expect(await ids({ since: between })).toEqual([second.id]);
    const before = await ids({ until: between });
    expect(before).toContain(first.id);
    expect(before).not.toContain(second.id);
    const refused = await au.xapi("GET", "statements", { query: { since: "last week" } });
    expect([refused.statusCode, expectErrorBody(refused).code]).toEqual([
      400,
      "xapi.invalid_request",
    ]);
  });
});
