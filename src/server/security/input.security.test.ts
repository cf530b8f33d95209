import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { courses, modules } from "../catalogue/courses/courses.table";
import { invitationMail } from "../mail/templates";
import { users } from "../people/auth/auth.table";
import { serializeError } from "../plugins/security-events";
import { createCourse, moduleId, validModule } from "../testing/courses";
import { EVALUATION_ANSWERS, useCreditClaim } from "../testing/credit-claim";
import { userById } from "../testing/inspect";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  quickAdmin,
  quickLearner,
  useSharedVideo,
} from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import {
  expectNoInternals,
  expectRefusal,
  expectUnchanged,
  freshAddress,
  HOSTILE_STRINGS,
  sessionCookie,
  snapshotAll,
} from "./support";

/** A cursor as the server encodes one, with whatever inside. */
const cursorOf = (text: string) => Buffer.from(text).toString("base64url");

describe("input attacks", () => {
  const ctx = useTestApp();
  const videoPath = useSharedVideo(ctx);

  async function adminCookie() {
    return sessionCookie(ctx, await quickAdmin(ctx));
  }

  describe.each(Object.entries(HOSTILE_STRINGS))("hostile text (%s)", (_name, text) => {
    it("is stored and answered verbatim in titles, descriptions and names", async () => {
      const cookie = await adminCookie();
      const course = await createCourse(ctx, cookie, { title: text, description: text });
      const [row] = await ctx.database.db.select().from(courses).where(eq(courses.id, course.id));
      expect(row).toMatchObject({ title: text, description: text });
      const added = await ctx.app.inject({
        method: "POST",
        url: `/api/courses/${course.id}/modules`,
        headers: { cookie },
        payload: { ...validModule(await videoPath(cookie), 1), title: text, description: text },
      });
      expect(added.statusCode, added.body).toBe(201);
      const [moduleRow] = await ctx.database.db
        .select()
        .from(modules)
        .where(eq(modules.courseId, course.id));
      expect(moduleRow).toMatchObject({ title: text, description: text });
      const read = await ctx.app.inject({
        method: "GET",
        url: `/api/courses/${course.id}`,
        headers: { cookie },
      });
      expect(read.headers["content-type"]).toMatch(/^application\/json/);
      expect(read.json()).toMatchObject({
        title: text,
        description: text,
        modules: [{ title: text, description: text }],
      });

      const registered = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/register",
        headers: { cookie },
        payload: { email: "hostile@example.com", name: text, phone: text.slice(0, 40) },
      });
      expect(registered.statusCode, registered.body).toBe(201);
      const [userRow] = await ctx.database.db
        .select()
        .from(users)
        .where(eq(users.email, "hostile@example.com"));
      expect(userRow?.name).toBe(text);
      // Searching for the hostile text itself finds exactly that learner.
      const found = await ctx.app.inject({
        method: "GET",
        url: `/api/users/learners?q=${encodeURIComponent(text)}`,
        headers: { cookie },
      });
      expect(found.statusCode).toBe(200);
      expect(found.json().map((l: { name: string }) => l.name)).toEqual([text]);

      const learner = await quickLearner(ctx);
      const profile = await ctx.app.inject({
        method: "PUT",
        url: "/api/auth/profile",
        headers: { cookie: await sessionCookie(ctx, learner) },
        payload: { name: text },
      });
      expect(profile.json().user.name).toBe(text);
      expect((await userById(ctx, learner.id))?.name).toBe(text);
    });
  });

  it("escapes hostile names in the HTML of invitation emails", () => {
    for (const text of Object.values(HOSTILE_STRINGS)) {
      const mail = invitationMail({
        issuer: { name: "Credo", signature: [], dateFormat: "month-day-year" },
        to: "a@example.com",
        name: text,
        link: "http://localhost:5000/?token=x",
        expiresInDays: 7,
      });
      expect(mail.html, text).not.toMatch(/<(script|img|svg|iframe)\b/i);
      // The plain-text part carries the name as it is: text is never rendered as markup.
      expect(mail.text).toContain(text);
    }
  });

  describe("prototype pollution", () => {
    const bodies = [
      '{"name":"Polluter","__proto__":{"role":"admin","isAdmin":true}}',
      '{"name":"Polluter","constructor":{"prototype":{"role":"admin","isAdmin":true}}}',
      '{"name":"Polluter","phone":"1","nested":[{"__proto__":{"isAdmin":true}}]}',
    ];

    it.each([
      ["PUT", "/api/auth/profile", "learner"],
      ["POST", "/api/auth/register", "admin"],
      ["POST", "/api/courses", "admin"],
      ["POST", "/api/enrollments", "admin"],
      ["POST", "/api/auth/login", "anonymous"],
    ] as const)(
      "refuses __proto__ and constructor bodies on %s %s (400), changing nothing",
      async (method, url, who) => {
        const user =
          who === "learner"
            ? await quickLearner(ctx)
            : who === "admin"
              ? await quickAdmin(ctx)
              : null;
        const cookie = user ? await sessionCookie(ctx, user) : undefined;
        const before = await snapshotAll(ctx);
        for (const payload of bodies) {
          const response = await ctx.app.inject({
            method,
            url,
            payload,
            headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
            remoteAddress: freshAddress(),
          });
          expectRefusal(response, 400, payload);
        }
        await expectUnchanged(ctx, before);
        expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
        expect(({} as Record<string, unknown>).role).toBeUndefined();
      },
    );

    it("ignores __proto__ and constructor in the query string", async () => {
      const cookie = await adminCookie();
      const before = await snapshotAll(ctx);
      const response = await ctx.app.inject({
        method: "GET",
        url: "/api/users/learners?__proto__[isAdmin]=1&constructor[prototype][isAdmin]=1&__proto__.role=admin",
        headers: { cookie },
      });
      expect(response.statusCode).toBe(200);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      await expectUnchanged(ctx, before);
    });
  });

  describe("injection in parameters", () => {
    const HOSTILE_IDS = [
      "' OR '1'='1",
      "1; DROP TABLE users; --",
      "1 UNION SELECT password_hash FROM users",
      "..%2F..%2F..%2Fetc%2Fpasswd",
      '{"$ne":null}',
      "$(touch /tmp/pwned)",
      "%2500",
    ];

    it.each(HOSTILE_IDS)(
      "answers the id %s with 4xx (never 500) on every id route",
      async (raw) => {
        const cookie = await adminCookie();
        const learnerCookie = await sessionCookie(ctx, await quickLearner(ctx));
        const before = await snapshotAll(ctx);
        const id = encodeURIComponent(raw);
        const attempts: [string, string, string][] = [
          ["GET", `/api/courses/${id}`, cookie],
          ["GET", `/api/courses/${id}`, learnerCookie],
          ["DELETE", `/api/courses/${id}`, cookie],
          ["PATCH", `/api/courses/${id}/publish`, cookie],
          ["DELETE", `/api/courses/${id}/modules/${moduleId(1)}`, cookie],
          ["DELETE", `/api/courses/${id}/modules/${id}`, cookie],
          ["PATCH", `/api/users/learners/${id}/restrict`, cookie],
          ["DELETE", `/api/users/learners/${id}`, cookie],
          ["DELETE", `/api/enrollments/${id}`, cookie],
          // An administrator may read anyone's enrollments: an unknown user has none.
          ["GET", `/api/enrollments/user/${id}`, cookie],
          ["GET", `/objects/uploads/${id}`, cookie],
          ["PUT", `/api/objects/upload/${id}`, cookie],
        ];
        for (const [method, url, who] of attempts) {
          const response = await ctx.app.inject({
            method: method as "GET",
            url,
            headers: { cookie: who },
          });
          expectNoInternals(response.body);
          if (response.statusCode === 200) {
            expect(`${method} ${url} ${response.body}`).toBe(`GET /api/enrollments/user/${id} []`);
            continue;
          }
          expect([400, 403, 404], `${method} ${url}: ${response.body}`).toContain(
            response.statusCode,
          );
        }
        await expectUnchanged(ctx, before);
      },
    );

    it("answers NUL characters anywhere in a request with 400, never 500", async () => {
      const cookie = await adminCookie();
      const learner = await quickLearner(ctx);
      const learnerCookie = await sessionCookie(ctx, learner);
      const before = await snapshotAll(ctx);
      const attempts = [
        { method: "GET", url: "/api/courses/ab%00cd", cookie },
        { method: "GET", url: "/api/users/learners?q=%00", cookie },
        { method: "GET", url: "/api/users/learners?q=a%00b", cookie },
        { method: "DELETE", url: "/api/users/learners/x%00", cookie },
        {
          method: "POST",
          url: "/api/courses",
          cookie,
          payload: { title: "a\u0000b", description: "d", category: "Design", duration: 1 },
        },
        {
          method: "POST",
          url: "/api/auth/register",
          cookie,
          payload: { email: "nul@example.com", name: "Nul\u0000" },
        },
        {
          method: "PUT",
          url: "/api/auth/profile",
          cookie: learnerCookie,
          payload: { name: "\u0000" },
        },
        {
          method: "POST",
          url: "/api/enrollments",
          cookie,
          payload: { userId: `${learner.id}\u0000`, courseId: "x" },
        },
      ] as const;
      for (const attempt of attempts) {
        const response = await ctx.app.inject({
          method: attempt.method,
          url: attempt.url,
          headers: { cookie: attempt.cookie },
          ...("payload" in attempt ? { payload: attempt.payload } : {}),
        });
        expectRefusal(response, 400, `${attempt.method} ${attempt.url}`);
      }
      await expectUnchanged(ctx, before);
    });

    it("treats SQL and LIKE syntax in searches as plain text: 200 with no extra rows, never 500", async () => {
      const cookie = await adminCookie();
      await quickLearner(ctx, { name: "Ann Example" });
      await quickLearner(ctx, { name: "Bob Example" });
      const before = await snapshotAll(ctx);
      for (const q of [
        "' OR 1=1 --",
        "' OR '1'='1",
        "%",
        "_",
        "\\",
        "%' UNION SELECT password_hash, email FROM users --",
        "Ann'); DROP TABLE users; --",
        "[a-z]*",
        "(?i).*",
      ]) {
        for (const url of ["/api/users/learners", "/api/enrollments"]) {
          const response = await ctx.app.inject({
            method: "GET",
            url: `${url}?q=${encodeURIComponent(q)}`,
            headers: { cookie },
          });
          expect(response.statusCode, `${url} ${q}`).toBe(200);
          if (url === "/api/users/learners") expect(response.json(), q).toEqual([]);
          expect(response.body).not.toContain("scrypt$");
        }
      }
      await expectUnchanged(ctx, before);
    });

    it("answers forged paging cursors, limits and repeated parameters with 400, never 500", async () => {
      const cookie = await adminCookie();
      await quickLearner(ctx);
      const before = await snapshotAll(ctx);
      const cursors = [
        cursorOf("2024-01-01T00:00:00Z|' OR '1'='1"),
        cursorOf("2024-01-01T00:00:00Z|x'; DROP TABLE users; --"),
        cursorOf("2024-02-30T00:00:00Z|abc"),
        cursorOf("0000-01-01T00:00:00Z|abc"),
        cursorOf("2024-01-01T24:00:00Z|abc"),
        cursorOf("2024-01-01T00:00:00Z|abc\u0000"),
        cursorOf("2024-01-01T00:00:00Z|abc|def"),
        cursorOf("now()|abc"),
        "' OR 1=1 --",
        "%00",
        "A".repeat(201),
      ];
      const limits = ["0", "-1", "101", "1e9", "1;DROP TABLE users", "NaN", "1.5", "[1]"];
      for (const url of ["/api/users/learners", "/api/enrollments"]) {
        for (const cursor of cursors) {
          const response = await ctx.app.inject({
            method: "GET",
            url: `${url}?cursor=${encodeURIComponent(cursor)}`,
            headers: { cookie },
          });
          expectRefusal(response, 400, `${url} cursor ${cursor}`);
        }
        for (const limit of limits) {
          const response = await ctx.app.inject({
            method: "GET",
            url: `${url}?limit=${encodeURIComponent(limit)}`,
            headers: { cookie },
          });
          expectRefusal(response, 400, `${url} limit ${limit}`);
        }
        // HTTP parameter pollution: a repeated parameter is refused, not merged or picked.
        for (const query of ["q=a&q=b", "limit=1&limit=2", "cursor=a&cursor=b"]) {
          const response = await ctx.app.inject({
            method: "GET",
            url: `${url}?${query}`,
            headers: { cookie },
          });
          expectRefusal(response, 400, `${url}?${query}`);
        }
        // There is no sort parameter: an injected one is ignored, not interpreted.
        const sorted = await ctx.app.inject({
          method: "GET",
          url: `${url}?sort=${encodeURIComponent("password_hash; DROP TABLE users")}&order=asc,1/0`,
          headers: { cookie },
        });
        const plain = await ctx.app.inject({ method: "GET", url, headers: { cookie } });
        expect(sorted.statusCode).toBe(200);
        expect(sorted.body).toBe(plain.body);
      }
      await expectUnchanged(ctx, before);
    });

    it("answers malformed URL encoding and over-long parameters in the API's { message } shape", async () => {
      const cookie = await adminCookie();
      const before = await snapshotAll(ctx);
      const bad = await ctx.app.inject({
        method: "DELETE",
        url: "/api/courses/%E0%A4%A",
        headers: { cookie },
      });
      expectRefusal(bad, 400);
      const long = await ctx.app.inject({
        method: "DELETE",
        url: `/api/courses/${"a".repeat(2500)}`,
        headers: { cookie },
      });
      expectRefusal(long, 414);
      await expectUnchanged(ctx, before);
    });
  });

  describe("type confusion", () => {
    it("refuses operator objects, arrays and coercible strings where values are expected", async () => {
      const learner = await quickLearner(ctx);
      const cookie = await adminCookie();
      const video = await videoPath(cookie);
      const course = await buildPublishedCourse(ctx, cookie, { video, modules: 1 });
      const before = await snapshotAll(ctx);
      const attempts: [string, string, object, string | undefined][] = [
        ["POST", "/api/auth/login", { email: learner.email, password: { $ne: null } }, undefined],
        ["POST", "/api/auth/login", { email: [learner.email], password: "x" }, undefined],
        ["POST", "/api/auth/login", { email: { $gt: "" }, password: "x" }, undefined],
        ["POST", "/api/auth/check-email", { email: { $regex: ".*" } }, undefined],
        [
          "POST",
          "/api/courses",
          { title: "T", description: "D", category: "Design", duration: "1" },
          cookie,
        ],
        [
          "POST",
          "/api/courses",
          { title: "T", description: "D", category: "Design", duration: 1.5 },
          cookie,
        ],
        [
          "POST",
          "/api/courses",
          { title: "T", description: "D", category: "Design", duration: 2 ** 53 },
          cookie,
        ],
        [
          "POST",
          "/api/courses",
          { title: ["T"], description: "D", category: "Design", duration: 1 },
          cookie,
        ],
        [
          "POST",
          "/api/courses",
          { title: "T", description: "D", category: "design", duration: 1 },
          cookie,
        ],
        ["POST", "/api/enrollments", { userId: { $ne: "" }, courseId: course.id }, cookie],
        [
          "PUT",
          `/api/courses/${course.id}/modules/${course.modules[0]!.id}`,
          { ...validModule(video, 1), id: "module_1; --" },
          cookie,
        ],
      ];
      for (const [method, url, payload, who] of attempts) {
        const response = await ctx.app.inject({
          method: method as "POST",
          url,
          payload,
          headers: who ? { cookie: who } : {},
          remoteAddress: freshAddress(),
        });
        expectRefusal(response, 400, `${url} ${JSON.stringify(payload)}`);
        expect(response.cookies).toEqual([]);
      }
      await expectUnchanged(ctx, before);
    });

    it("refuses deeply nested JSON with 400, never a crash", async () => {
      const cookie = await adminCookie();
      const before = await snapshotAll(ctx);
      for (const payload of [
        `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
        `${'{"a":'.repeat(40_000)}1${"}".repeat(40_000)}`,
      ]) {
        const response = await ctx.app.inject({
          method: "POST",
          url: "/api/courses",
          headers: { cookie, "content-type": "application/json" },
          payload,
        });
        expectRefusal(response, 400);
      }
      await expectUnchanged(ctx, before);
    });
  });
});

describe("text that is not well-formed Unicode", () => {
  const { ctx, setup } = useCreditClaim();
  const LONE = "lone \ud800 surrogate";

  it("refuses a lone surrogate in an evaluation comment with 400, and records nothing", async () => {
    const { course, learner, cookie, url } = await setup();
    expect((await call(ctx, "POST", url("acknowledge"), { cookie })).statusCode).toBe(200);
    await completeViaApi(ctx, cookie, learner.id, course, course.modules.length);
    const before = await snapshotAll(ctx);
    const answers = EVALUATION_ANSWERS.map((a) =>
      a.itemId === "comments" ? { ...a, value: LONE } : a,
    );
    const response = await call(ctx, "POST", url("evaluation"), {
      cookie,
      payload: { answers },
    });
    expectRefusal(response, 400, "evaluation");
    expect(response.json()).toEqual({
      message: "Value contains a broken character: retype the text.",
      code: "input.unicode",
      path: "answers.4.value",
    });
    await expectUnchanged(ctx, before);
  });

  it("refuses it the same way on every route, in values and in keys", async () => {
    const { adminCookie, course } = await setup();
    const before = await snapshotAll(ctx);
    for (const [method, path, payload] of [
      ["PATCH", `/api/courses/${course.id}`, { title: LONE }],
      ["PATCH", `/api/courses/${course.id}`, { description: "\udc00 low half alone" }],
      ["POST", "/api/learners", { name: "Ann", email: "ann@example.com", [LONE]: 1 }],
    ] as const) {
      const response = await call(ctx, method, path, { cookie: adminCookie, payload });
      expectRefusal(response, 400, path);
      expect(response.json().code, path).toBe("input.unicode");
    }
    await expectUnchanged(ctx, before);
  });

  it("logs a failed statement without the values it carried", () => {
    const failed = new Error(
      'Failed query: insert into "evaluation_submissions" ("answers") values ($1)\nparams: [{"itemId":"comments","value":"my private comment"}]',
    );
    failed.stack = `${failed.message}\n    at insert (/app/src/server/db.ts:1:1)`;
    const logged = JSON.stringify(serializeError(new Error("wrapped", { cause: failed })));
    expect(logged).not.toContain("my private comment");
    expect(logged).toContain("params: [REDACTED]");
  });
});
