import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type App, buildApp } from "../app";
import { buildConfig } from "../config";
import type { DatabaseHandle } from "../db/client";
import { createMailer } from "../mail/create-mailer";
import type { Mailer, MailMessage } from "../mail/mailer";
import { testPasswords } from "../testing/passwords";
import { openTestDatabase, resetDatabase } from "../testing/test-database";

const ADMIN_KEY = "logging-test-admin-key-7f3a9c";
const SECRETS = {
  adminPassword: "Admin-Pass-1234",
  learnerPassword: "Learner-Pass-5678",
  wrongPassword: "Wrong-Pass-0000",
  changedPassword: "Learner-New-9999",
  resetPassword: "Reset-Pass-4242",
  wrongAdminKey: "Wrong-Admin-Key-xyz",
};

type LogLine = Record<string, unknown> & { msg?: string; event?: string };

describe("security event logging", () => {
  let database: DatabaseHandle;
  let app: App;
  let dataDir: string;
  const raw: string[] = [];
  const mails: MailMessage[] = [];
  /** Called after every mail sent: wakes waitForMail. */
  let mailSent = () => {};
  const lines = () => raw.map((line) => JSON.parse(line) as LogLine);
  const events = (name: string) => lines().filter((line) => line.event === name);

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), "credo-logging-"));
    const config = buildConfig({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PUBLIC_URL: "http://localhost:5000",
      ADMIN_SETUP_KEY: ADMIN_KEY,
    });
    const mailer: Mailer = {
      kind: "outbox",
      send: async (message) => {
        mails.push(message);
        mailSent();
      },
      close: () => {},
    };
    app = await buildApp({
      config,
      database,
      adminSetupKey: { key: ADMIN_KEY, generated: false },
      // Debug, so the per-request lines are checked too.
      logger: { level: "debug", stream: { write: (line: string) => raw.push(line) } },
      mailer,
      passwords: testPasswords,
    });
    await app.ready();
  });

  beforeEach(async () => {
    await resetDatabase(database);
    raw.length = 0;
    mails.length = 0;
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const cookieOf = (response: LightMyRequestResponse) => {
    const cookie = response.cookies.find((c) => c.name === "credo_session");
    if (!cookie) throw new Error(`no session cookie: ${response.statusCode} ${response.body}`);
    return cookie.value;
  };

  function inject(method: string, url: string, payload?: object, session?: string) {
    return app.inject({
      method: method as "POST",
      url,
      ...(payload ? { payload } : {}),
      headers: session ? { cookie: `credo_session=${session}` } : {},
      remoteAddress: "203.0.113.7",
    });
  }

  /** The `count`-th mail, once sent (mails go out after the request has been answered). */
  async function waitForMail(count: number) {
    while (mails.length < count) {
      await new Promise<void>((resolve) => {
        mailSent = resolve;
      });
    }
    return mails[count - 1]!;
  }

  /** A whole account's life: every security event happens once. */
  async function scenario() {
    const admin = await inject("POST", "/api/auth/setup-admin-password", {
      email: "root@example.com",
      password: SECRETS.adminPassword,
      name: "Root",
      adminKey: ADMIN_KEY,
    });
    const adminSession = cookieOf(admin);
    const failedAdmin = await inject("POST", "/api/auth/setup-admin-password", {
      email: "mallory@example.com",
      password: SECRETS.adminPassword,
      name: "Mallory",
      adminKey: SECRETS.wrongAdminKey,
    });
    expect(failedAdmin.statusCode).toBe(403);
    const registered = await inject(
      "POST",
      "/api/auth/register",
      { email: "lee@example.com", name: "Lee" },
      adminSession,
    );
    const learnerId = registered.json().id as string;
    const invitation = await waitForMail(1);
    const setup = await inject("POST", "/api/auth/setup-password", {
      email: "lee@example.com",
      password: SECRETS.learnerPassword,
      name: "Lee",
    });
    const setupSession = cookieOf(setup);
    const failed = await inject("POST", "/api/auth/login", {
      email: "lee@example.com",
      password: SECRETS.wrongPassword,
    });
    expect(failed.statusCode).toBe(401);
    const login = await inject("POST", "/api/auth/login", {
      email: "lee@example.com",
      password: SECRETS.learnerPassword,
    });
    const learnerSession = cookieOf(login);
    expect((await inject("GET", "/api/users/learners", undefined, learnerSession)).statusCode).toBe(
      403,
    );
    const changed = await inject(
      "PUT",
      "/api/auth/profile",
      {
        name: "Lee",
        currentPassword: SECRETS.learnerPassword,
        newPassword: SECRETS.changedPassword,
      },
      learnerSession,
    );
    expect(changed.statusCode).toBe(200);
    await inject("POST", "/api/auth/reset-password", { email: "lee@example.com" });
    const reset = await waitForMail(2);
    const resetToken = new URL(reset.link!).searchParams.get("token")!;
    const confirmed = await inject("POST", "/api/auth/reset-password/confirm", {
      token: resetToken,
      password: SECRETS.resetPassword,
    });
    const resetSession = cookieOf(confirmed);
    await inject("POST", "/api/auth/logout", undefined, resetSession);
    expect(
      (await inject("PATCH", `/api/users/learners/${learnerId}/restrict`, undefined, adminSession))
        .statusCode,
    ).toBe(200);
    expect(
      (await inject("DELETE", `/api/users/learners/${learnerId}`, undefined, adminSession))
        .statusCode,
    ).toBe(200);
    return {
      learnerId,
      adminId: admin.json().user.id as string,
      secrets: [
        ...Object.values(SECRETS),
        ADMIN_KEY,
        adminSession,
        setupSession,
        learnerSession,
        resetSession,
        resetToken,
        new URL(invitation.link!).searchParams.get("token")!,
      ],
    };
  }

  it("logs a failed sign-in as a structured event with the account and address", async () => {
    const response = await inject("POST", "/api/auth/login", {
      email: "nobody@example.com",
      password: SECRETS.wrongPassword,
    });
    expect(response.statusCode).toBe(401);
    const [event] = events("auth.login.failure");
    expect(event).toMatchObject({
      event: "auth.login.failure",
      email: "nobody@example.com",
      status: 401,
      ip: "203.0.113.7",
      level: 40,
    });
    expect(raw.join("\n")).not.toContain(SECRETS.wrongPassword);
  });

  it("logs sign-in, refused access, administrator creation, restriction, deletion and password changes", async () => {
    const { learnerId, adminId } = await scenario();
    expect(events("auth.admin.created")).toMatchObject([{ userId: adminId }]);
    expect(events("auth.admin.setup.failure")).toMatchObject([{ status: 403 }]);
    expect(events("learner.registered")).toMatchObject([{ userId: learnerId, actorId: adminId }]);
    expect(events("auth.password.setup")).toMatchObject([{ userId: learnerId }]);
    expect(events("auth.login.failure")).toMatchObject([{ email: "lee@example.com", status: 401 }]);
    expect(events("auth.login.success")).toMatchObject([{ userId: learnerId }]);
    expect(events("access.denied")).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          status: 403,
          route: "/api/users/learners",
          userId: learnerId,
          role: "learner",
        }),
      ]),
    );
    expect(events("auth.password.changed")).toMatchObject([{ userId: learnerId }]);
    expect(events("auth.password.reset.requested")).toMatchObject([{ email: "lee@example.com" }]);
    expect(events("auth.password.reset")).toMatchObject([{ userId: learnerId }]);
    expect(events("auth.logout")).toMatchObject([{ userId: learnerId }]);
    expect(events("learner.restricted")).toMatchObject([{ userId: learnerId, actorId: adminId }]);
    expect(events("learner.deleted")).toMatchObject([{ userId: learnerId, actorId: adminId }]);
    for (const line of lines().filter((l) => l.event)) {
      expect(line.ip, line.event).toBe("203.0.113.7");
    }
  });

  it("keeps passwords, the admin key, session cookies and emailed tokens out of every log line", async () => {
    const { secrets } = await scenario();
    expect(raw.length).toBeGreaterThan(20);
    const all = raw.join("\n");
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(all, "a secret reached the log").not.toContain(secret);
    }
    expect(all).not.toContain("scrypt$");
  });

  it("logs refused requests, but not the web client's anonymous 'who am I' probe", async () => {
    expect((await inject("GET", "/api/auth/me")).statusCode).toBe(401);
    expect(events("access.denied")).toEqual([]);
    expect((await inject("GET", "/api/admin/stats")).statusCode).toBe(401);
    expect(events("access.denied")).toMatchObject([
      { status: 401, route: "/api/admin/stats", userId: null, ip: "203.0.113.7" },
    ]);
  });

  it("logs a client's throttled requests to one route once a minute, not each of them", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) {
      const guess = { email: "someone@example.com", password: `${SECRETS.wrongPassword}${i}` };
      statuses.push((await inject("POST", "/api/auth/login", guess)).statusCode);
    }
    const throttledCount = statuses.filter((status) => status === 429).length;
    expect(throttledCount).toBeGreaterThan(1);
    expect(events("access.throttled")).toMatchObject([
      { status: 429, route: "/api/auth/login", ip: "203.0.113.7", repeats: 0 },
    ]);
  });

  it("logs the address of an emailed link without its token", async () => {
    const token = "SecretLinkToken-0123456789abcdefghijklmnopq";
    for (const url of [
      `/reset-password?token=${token}`,
      `/?setup=1&email=lee%40example.com&token=${token}`,
      `/api/auth/me?adminKey=${ADMIN_KEY}`,
    ]) {
      await inject("GET", url);
    }
    const all = raw.join("\n");
    expect(all).not.toContain(token);
    expect(all).not.toContain(ADMIN_KEY);
    expect(all).toContain("/reset-password?token=[REDACTED]");
  });

  it("never logs an emailed link (with its token) from the outbox in production", async () => {
    const logged: object[] = [];
    const log = { info: (obj: object) => logged.push(obj) };
    const message = {
      to: "lee@example.com",
      subject: "Reset",
      text: "t",
      html: "<p>h</p>",
      link: "http://localhost:5000/reset-password?token=SecretLinkToken",
    };
    const production = createMailer(
      { dataDir, mailFrom: "Credo <no-reply@localhost>", smtpUrl: undefined, production: true },
      log,
    );
    await production.send(message);
    expect(JSON.stringify(logged)).not.toContain("SecretLinkToken");
    production.close();
  });
});
