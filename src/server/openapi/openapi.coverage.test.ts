import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../app";
import { buildConfig } from "../config";
import { type DatabaseHandle, openPglite } from "../db/client";
import { API_STATUSES_DIR, type RecordedAnswer, readApiStatuses } from "../testing/api-statuses";
import { testPasswords } from "../testing/passwords";
import { captureRoutes, type RegisteredRoute } from "../testing/route-list";
import { databaseOnly } from "../testing/test-scope";

/**
 * The OpenAPI document against what the unit and API tests saw (RECORD_API_STATUSES; run by
 * scripts/test.mjs after them, with vitest.openapi.config.ts): every route is documented,
 * every answer a test got is in the document, and every answer the document lists was got
 * by some test.
 */

/**
 * Answers the document lists that no test can reasonably provoke: a failure of the server
 * itself (500, details only logged) and the database or the event loop giving out (503).
 * Only with their generic codes: a 503 a route gives on purpose must be seen.
 */
const NEVER_PROVOKED: Record<string, string[]> = {
  "500": ["system.error"],
  "503": ["system.unavailable"],
};

interface Operation {
  tags?: string[];
  security?: Record<string, string[]>[];
  responses?: Record<string, Response>;
}
interface Response {
  content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

/** `/api/courses/:id/captions/:language.vtt` → `/api/courses/{id}/captions/{language}.vtt`. */
const documentPath = (url: string) => url.replace(/:(\w+)/g, "{$1}");
const codesOf = (response: Response): string[] =>
  response.content?.["application/json"]?.schema?.properties?.code?.enum ?? [];

/** The portal's API, as opposed to the built web client's files and the document's own pages. */
const isApi = (url: string) =>
  (url.startsWith("/api/") || url.startsWith("/objects/")) && !url.startsWith("/api/docs");

describe("the OpenAPI document", () => {
  let database: DatabaseHandle;
  let app: App;
  let dataDir: string;
  let routes: RegisteredRoute[];
  let document: Document;
  const recorded = readApiStatuses();

  beforeAll(async () => {
    database = await openPglite(null);
    dataDir = mkdtempSync(join(tmpdir(), "credo-openapi-"));
    const config = buildConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PUBLIC_URL: "http://localhost:5000",
      ADMIN_SETUP_KEY: "openapi-coverage-admin-key",
      LOG_LEVEL: "silent",
    });
    routes = captureRoutes();
    app = await buildApp({
      config,
      database,
      adminSetupKey: { key: config.adminSetupKey, generated: false },
      logger: false,
      passwords: testPasswords,
      shedLoad: false,
    });
    await app.ready();
    document = (await app.inject({ method: "GET", url: "/api/docs/json" })).json();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Each API route's method and operation in the document (undefined when missing). */
  const operations = () =>
    routes
      .filter((route) => isApi(route.url) && route.method !== "HEAD")
      .flatMap((route) =>
        [route.method].flat().map((method) => ({
          key: `${method} ${route.url}`,
          route,
          operation: document.paths[documentPath(route.url)]?.[method.toLowerCase()],
        })),
      );

  it("documents every API route with its tags and a successful answer", () => {
    const problems: string[] = [];
    for (const { key, route, operation } of operations()) {
      if (!route.schema || route.schema.hide) problems.push(`${key}: no schema, or hidden`);
      else if (!operation) problems.push(`${key}: not in the document`);
      else {
        if (!operation.tags?.length) problems.push(`${key}: no tags`);
        if (!Object.keys(operation.responses ?? {}).some((status) => /^[23]/.test(status))) {
          problems.push(`${key}: no successful answer documented`);
        }
      }
    }
    // Everything else is hidden: the web client's files and the document's own pages.
    for (const route of routes.filter((r) => !isApi(r.url))) {
      if (!route.schema?.hide) problems.push(`${route.method} ${route.url}: shown, not API`);
    }
    expect(problems).toEqual([]);
  });

  it("has recordings of a whole test run to compare with", () => {
    expect(
      recorded,
      `no answers recorded in ${API_STATUSES_DIR}: run the tests with RECORD_API_STATUSES=1 first`,
    ).not.toBeNull();
  });

  /** The recorded answers by `METHOD url` (a HEAD to a GET route counts for the GET). */
  const answersByRoute = () => {
    const byRoute = new Map<string, RecordedAnswer[]>();
    for (const answer of recorded ?? []) {
      const method = answer.method === "HEAD" ? "GET" : answer.method;
      const key = `${method} ${answer.url}`;
      byRoute.set(key, [...(byRoute.get(key) ?? []), answer]);
    }
    return byRoute;
  };

  it("lists every answer the tests got, with its code", ({ skip }) => {
    if (!recorded) skip();
    const byRoute = answersByRoute();
    const problems: string[] = [];
    for (const { key, operation } of operations()) {
      if (!operation) continue;
      const seen = new Set<string>();
      for (const { status, code } of byRoute.get(key) ?? []) {
        const response = operation.responses?.[String(status)];
        const label = `${key}: answered ${status}${code ? ` ${code}` : ""}`;
        if (seen.has(label)) continue;
        seen.add(label);
        if (!response) problems.push(`${label}, which the document does not list`);
        else if (status >= 400 && code && !codesOf(response).includes(code)) {
          problems.push(`${label}, a code the document does not list for ${status}`);
        }
      }
    }
    expect(problems.sort()).toEqual([]);
  });

  // A pass that leaves tests out (CI's PostgreSQL pass, TEST_DATABASE_ONLY=1) can show that
  // what it saw is documented, not that everything documented was seen.
  it.skipIf(databaseOnly)("lists no answer that no test got", ({ skip }) => {
    if (!recorded) skip();
    const byRoute = answersByRoute();
    const problems: string[] = [];
    for (const { key, operation } of operations()) {
      const statuses = new Set((byRoute.get(key) ?? []).map((answer) => String(answer.status)));
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (statuses.has(status)) continue;
        const exempt = NEVER_PROVOKED[status];
        if (exempt && codesOf(response).every((code) => exempt.includes(code))) continue;
        problems.push(`${key}: documents ${status} (${codesOf(response).join(", ")}), never got`);
      }
    }
    expect(problems.sort()).toEqual([]);
  });
});
