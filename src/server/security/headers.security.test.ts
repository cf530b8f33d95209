import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "../../contract";
import { type App, buildApp } from "../app";
import { buildConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { moduleId } from "../testing/courses";
import {
  buildPublishedCourse,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  useSharedVideo,
} from "../testing/learning";
import { testPasswords } from "../testing/passwords";
import { useTestApp } from "../testing/test-app";
import { openTestDatabase } from "../testing/test-database";
import {
  expectNoInternals,
  expectRefusal,
  expectUnchanged,
  sessionCookie,
  snapshotAll,
} from "./support";

const FOREIGN_ORIGINS = [
  "https://evil.example",
  "null",
  "http://localhost:5000.evil.example",
  "http://evil.localhost:5000",
];

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Map<string, string> {
  return new Map(
    String(header)
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name!, values.join(" ")]),
  );
}

function expectStrictHeaders(headers: Record<string, unknown>, label: string) {
  const csp = directives(headers["content-security-policy"]);
  expect(csp.get("frame-ancestors"), label).toBe("'none'");
  expect(csp.get("script-src"), label).toBe("'self'");
  expect(csp.get("object-src"), label).toBe("'none'");
  expect(csp.get("base-uri"), label).toBe("'none'");
  expect(csp.get("default-src"), label).toBe("'self'");
  expect(headers["x-content-type-options"], label).toBe("nosniff");
  expect(headers["referrer-policy"], label).toBe("no-referrer");
  expect(headers["x-frame-options"], label).toBeDefined();
  expect(headers["x-powered-by"], label).toBeUndefined();
  expect(headers.server, label).toBeUndefined();
}

describe("CSRF, CORS and header attacks", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function world() {
    const admin = await quickAdmin(ctx);
    const adminCookie = await sessionCookie(ctx, admin);
    const learner = await quickLearner(ctx);
    const learnerCookie = await sessionCookie(ctx, learner);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 2,
    });
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    return { admin, adminCookie, learner, learnerCookie, course };
  }

  it("sends a strict CSP (frame-ancestors 'none'), nosniff and Referrer-Policy on every kind of answer", async () => {
    const { adminCookie, course } = await world();
    const answers: [string, InjectOptions][] = [
      ["web page", { method: "GET", url: "/" }],
      ["client route", { method: "GET", url: "/admin/courses" }],
      ["API answer", { method: "GET", url: "/api/auth/me", headers: { cookie: adminCookie } }],
      ["refusal", { method: "GET", url: "/api/users/learners" }],
      ["unknown API path", { method: "GET", url: "/api/nope" }],
      [
        "bad JSON",
        {
          method: "POST",
          url: "/api/auth/login",
          headers: { "content-type": "application/json" },
          payload: "{",
        },
      ],
    ];
    for (const [label, request] of answers) {
      const response = await ctx.app.inject(request);
      expectStrictHeaders(response.headers, label);
      expect(String(response.headers["content-security-policy"]), label).not.toMatch(
        /unsafe-eval|script-src[^;]*unsafe-inline/,
      );
    }
    // An uploaded file opened directly is a sandboxed document that runs nothing.
    const object = await ctx.app.inject({
      method: "GET",
      url: course.modules[0]!.videoUrl,
      headers: { cookie: adminCookie },
    });
    const csp = directives(object.headers["content-security-policy"]);
    expect(csp.get("default-src")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.has("sandbox")).toBe(true);
    expect(object.headers["x-content-type-options"]).toBe("nosniff");
    expect(object.headers["referrer-policy"]).toBe("no-referrer");
  });

  it("keeps the API documentation out of frames and <base> re-rooting like every other page", async () => {
    for (const url of ["/api/docs", "/api/docs/static/index.html", "/api/docs/json"]) {
      const response = await ctx.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBeLessThan(400);
      const csp = directives(response.headers["content-security-policy"]);
      expect(csp.get("frame-ancestors"), url).toBe("'none'");
      expect(csp.get("base-uri"), url).toBe("'none'");
      expect(csp.get("object-src"), url).toBe("'none'");
      expect(csp.get("script-src") ?? "", url).not.toMatch(/unsafe-(eval|inline)/);
      // Plain http outside production, as for the rest of the portal.
      expect(csp.has("upgrade-insecure-requests"), url).toBe(false);
    }
  });

  it("sends Cache-Control: no-store on every authenticated API answer, and on refusals", async () => {
    const { adminCookie, learnerCookie, learner, course } = await world();
    const requests: [string, string, string | undefined][] = [
      ["GET", "/api/auth/me", adminCookie],
      ["GET", "/api/courses", adminCookie],
      ["GET", `/api/courses/${course.id}`, learnerCookie],
      ["GET", "/api/users/learners", adminCookie],
      ["GET", "/api/enrollments", adminCookie],
      ["GET", `/api/enrollments/user/${learner.id}`, learnerCookie],
      ["GET", "/api/admin/stats", adminCookie],
      ["GET", "/api/admin/reports", adminCookie],
      ["GET", "/api/admin/reports/export", adminCookie],
      ["GET", "/api/auth/me", learnerCookie],
      ["GET", "/api/users/learners", learnerCookie],
      ["GET", "/api/auth/me", undefined],
    ];
    for (const [method, url, cookie] of requests) {
      const response = await ctx.app.inject({
        method: method as "GET",
        url,
        headers: cookie ? { cookie } : {},
      });
      expect(response.headers["cache-control"], `${url} ${response.statusCode}`).toBe("no-store");
    }
    const login = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: learner.email, password: learner.password },
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers["cache-control"]).toBe("no-store");
  });

  it("grants no CORS to foreign origins, not even on a preflight", async () => {
    const { adminCookie, learner } = await world();
    const before = await snapshotAll(ctx);
    for (const origin of FOREIGN_ORIGINS) {
      for (const url of ["/api/auth/me", `/api/users/learners/${learner.id}`, "/api/auth/login"]) {
        const preflight = await ctx.app.inject({
          method: "OPTIONS",
          url,
          headers: {
            origin,
            "access-control-request-method": "DELETE",
            "access-control-request-headers": "content-type",
          },
        });
        const read = await ctx.app.inject({
          method: "GET",
          url: "/api/auth/me",
          headers: { origin, cookie: adminCookie },
        });
        for (const response of [preflight, read]) {
          const corsHeaders = Object.keys(response.headers).filter((h) =>
            h.startsWith("access-control-"),
          );
          expect(corsHeaders, `${origin} ${url}`).toEqual([]);
        }
      }
    }
    await expectUnchanged(ctx, before);
  });

  it("answers TRACE without echoing the request (no cookie reflection)", async () => {
    const { adminCookie } = await world();
    for (const url of ["/api/auth/me", "/", "/api/users/learners"]) {
      const response = await ctx.app.inject({
        method: "TRACE" as "GET",
        url,
        headers: { cookie: adminCookie },
      });
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.body).not.toContain(adminCookie.split("=")[1]!);
    }
  });

  it.each([
    ["text/plain", "POST", "/api/courses"],
    ["text/plain", "POST", "/api/enrollments"],
    ["text/plain", "POST", "/api/progress/update"],
    ["text/plain", "PUT", "/api/objects/set-acl"],
    ["application/x-www-form-urlencoded", "POST", "/api/courses/:course/modules"],
    ["multipart/form-data; boundary=x", "PATCH", "/api/users/learners/:learner/restrict"],
    ["text/plain", "DELETE", "/api/users/learners/:learner"],
    ["text/plain;charset=UTF-8", "POST", "/api/auth/reset-password/confirm"],
  ])("refuses a %s body to %s %s (415), changing nothing", async (type, method, path) => {
    const w = await world();
    const url = path.replace(":course", w.course.id).replace(":learner", w.learner.id);
    const cookie = url.startsWith("/api/progress") ? w.learnerCookie : w.adminCookie;
    const payload = JSON.stringify({
      title: "Forged",
      description: "x",
      category: "Design",
      duration: 1,
      userId: w.learner.id,
      courseId: w.course.id,
      moduleId: w.course.modules[0]!.id,
      id: moduleId(5),
      videoUrl: w.course.modules[0]!.videoUrl,
      token: "x".repeat(43),
      password: "forged-password",
    });
    const before = await snapshotAll(ctx);
    const response = await ctx.app.inject({
      method: method as "POST",
      url,
      headers: { cookie, "content-type": type },
      payload,
    });
    expectRefusal(response, 415);
    expect(response.json()).toEqual({
      message: MESSAGES.jsonRequired,
      code: "request.json_required",
    });
    await expectUnchanged(ctx, before);
  });

  it("refuses state changes from foreign origins with the victim's cookie, changing nothing", async () => {
    const w = await world();
    const before = await snapshotAll(ctx);
    const attacks: [string, string, string, object | undefined][] = [
      ["DELETE", `/api/courses/${w.course.id}`, w.adminCookie, undefined],
      ["DELETE", `/api/users/learners/${w.learner.id}`, w.adminCookie, undefined],
      ["PATCH", `/api/users/learners/${w.learner.id}/restrict`, w.adminCookie, undefined],
      ["POST", "/api/auth/register", w.adminCookie, { email: "csrf@example.com", name: "C" }],
      [
        "POST",
        "/api/progress/update",
        w.learnerCookie,
        { userId: w.learner.id, courseId: w.course.id, moduleId: w.course.modules[0]!.id },
      ],
      ["PUT", "/api/auth/profile", w.learnerCookie, { name: "CSRF" }],
      ["POST", "/api/auth/logout", w.learnerCookie, undefined],
    ];
    for (const origin of FOREIGN_ORIGINS) {
      for (const [method, url, cookie, payload] of attacks) {
        const response = await ctx.app.inject({
          method: method as "POST",
          url,
          headers: { cookie, origin, "sec-fetch-site": "cross-site" },
          ...(payload ? { payload } : {}),
        });
        expectRefusal(response, 403, `${origin} ${method} ${url}`);
        expect(response.json()).toEqual({
          message: MESSAGES.crossSite,
          code: "request.cross_site",
        });
      }
    }
    await expectUnchanged(ctx, before);
  });
});

describe("headers in production", () => {
  const ctx = useTestApp({ NODE_ENV: "production" });

  it("sends HSTS, upgrades insecure requests and names the session cookie __Host-", async () => {
    const learner = await quickLearner(ctx);
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: learner.email, password: learner.password },
    });
    expect(response.statusCode).toBe(200);
    const hsts = String(response.headers["strict-transport-security"]);
    const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1]);
    // ASVS 3.4.1: at least a year, and for level 2 every subdomain too.
    expect(maxAge).toBeGreaterThanOrEqual(365 * 24 * 60 * 60);
    expect(hsts).toContain("includeSubDomains");
    expect(
      directives(response.headers["content-security-policy"]).has("upgrade-insecure-requests"),
    ).toBe(true);
    // __Host-: Secure, path /, no Domain, so no subdomain can plant a session (fixation).
    const cookie = response.cookies.find((c) => c.name === "__Host-credo_session");
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie?.domain).toBeUndefined();
    const planted = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie: `credo_session=${cookie!.value}` },
    });
    expect(planted.statusCode).toBe(401);
    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie: `__Host-credo_session=${cookie!.value}` },
    });
    expect(me.statusCode).toBe(200);
  });
});

describe("headers outside production", () => {
  const ctx = useTestApp();

  it("sends no HSTS over plain http in development (it would lock a LAN address to https)", async () => {
    const response = await ctx.app.inject({ method: "GET", url: "/api/health" });
    expect(response.headers["strict-transport-security"]).toBeUndefined();
  });
});

describe("server errors", () => {
  let database: DatabaseHandle;
  let app: App;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), "credo-security-"));
    const config = buildConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      ADMIN_SETUP_KEY: "security-test-admin-key",
    });
    app = await buildApp({
      config,
      database,
      adminSetupKey: { key: config.adminSetupKey, generated: false },
      logger: false,
      passwords: testPasswords,
    });
    // Test-only routes that fail the ways real code can.
    app.get("/api/test/throws", async () => {
      throw new Error(
        "select password_hash from users failed at handler (/work/main/src/server/x.ts:12:3)",
      );
    });
    app.get("/api/test/throws-non-error", async () => {
      throw { message: "internal detail", stack: "at secret (/app/x.ts:1:1)" };
    });
    app.get("/api/test/sql", async () => database.db.execute(sql`select * from no_such_table`));
    app.get("/api/test/status-500", async () => {
      throw Object.assign(new Error("upstream token abc123 rejected"), {
        statusCode: 502,
        code: "ERR_UPSTREAM",
      });
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers every server failure with a generic { message }: no stack, path, SQL or code", async () => {
    for (const url of [
      "/api/test/throws",
      "/api/test/throws-non-error",
      "/api/test/sql",
      "/api/test/status-500",
    ]) {
      const response = await app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(500);
      expect(response.json(), url).toEqual({ message: MESSAGES.serverError, code: "system.error" });
      expectNoInternals(response.body);
      expect(response.body).not.toMatch(/no_such_table|password_hash|abc123|internal detail/);
      expect(response.headers["cache-control"], url).toBe("no-store");
      expectStrictHeaders(response.headers, url);
    }
  });
});
