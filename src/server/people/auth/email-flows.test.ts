import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAdmin, buildLearner, DEFAULT_PASSWORD, signIn } from "../../testing/factories";
import { linkIn, startTestSmtp, type TestSmtp } from "../../testing/smtp-server";
import { cookieFrom, useTestApp } from "../../testing/test-app";

const PUBLIC_URL = "https://learn.example.com";

describe("email flows over a real SMTP server", () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startTestSmtp();
  });
  afterAll(async () => {
    await smtp.close();
  });
  const ctx = useTestApp(() => ({
    SMTP_URL: smtp.url,
    PUBLIC_URL,
    PASSWORD_SETUP_MODE: "invite",
    PRODUCT_NAME: "Acme Academy",
  }));

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: "POST", url, payload, headers });

  async function register(email: string) {
    const cookie = await signIn(ctx, await buildAdmin(ctx));
    const response = await post("/api/auth/register", { email, name: "Ada Learner" }, { cookie });
    expect(response.statusCode).toBe(201);
    return smtp.waitFor(email, (m) => m.subject.includes("account is ready"));
  }

  it("mails an invitation whose link sets the password once (invite mode)", async () => {
    const email = `ada-${Date.now()}@example.com`;
    const mail = await register(email);
    expect(mail.subject).toBe("Your Acme Academy account is ready");
    expect(mail.body).toContain("Content-Type: text/html");
    const link = new URL(linkIn(mail, `${PUBLIC_URL}/?`));
    expect(link.searchParams.get("setup")).toBe("1");
    expect(link.searchParams.get("email")).toBe(email);
    const token = link.searchParams.get("token")!;
    expect(token.length).toBeGreaterThanOrEqual(22);

    const withoutToken = await post("/api/auth/setup-password", {
      email,
      password: "secret-1",
      name: "Ada",
    });
    expect(withoutToken.statusCode).toBe(403);

    const ok = await post("/api/auth/setup-password", {
      email,
      password: "secret-1",
      name: "Ada Lovelace",
      inviteToken: token,
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().user).toMatchObject({ email, name: "Ada Lovelace", passwordSetup: true });

    // The token is single-use and the stored copy is only a hash.
    const rows = await ctx.database.db.execute(sql`select token_hash from auth_tokens`);
    const hashes = (rows as unknown as { rows: { token_hash: string }[] }).rows;
    expect(hashes.every((r) => r.token_hash !== token && r.token_hash.length === 64)).toBe(true);
  });

  it("refuses another account's invitation token", async () => {
    const first = `first-${Date.now()}@example.com`;
    const mail = await register(first);
    const token = new URL(linkIn(mail, `${PUBLIC_URL}/?`)).searchParams.get("token")!;
    const other = await buildLearner(ctx, { password: null, passwordSetup: false });
    const response = await post("/api/auth/setup-password", {
      email: other.email,
      password: "secret-1",
      name: "Mallory",
      inviteToken: token,
    });
    expect(response.statusCode).toBe(403);
  });

  it("resends an invitation without revealing whether the email exists", async () => {
    const learner = await buildLearner(ctx, { password: null, passwordSetup: false });
    const known = await post("/api/auth/resend-invitation", { email: learner.email });
    const unknown = await post("/api/auth/resend-invitation", { email: "nobody@example.com" });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    await smtp.waitFor(learner.email);
  });

  it("resets a password through the emailed link, once, and ends other sessions", async () => {
    const learner = await buildLearner(ctx);
    const oldCookie = await signIn(ctx, learner);
    const known = await post("/api/auth/reset-password", { email: learner.email });
    const unknown = await post("/api/auth/reset-password", { email: "ghost@example.com" });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);

    const mail = await smtp.waitFor(learner.email, (m) => m.subject.startsWith("Reset"));
    const link = new URL(linkIn(mail, `${PUBLIC_URL}/reset-password?`));
    expect(link.origin).toBe(PUBLIC_URL);
    const token = link.searchParams.get("token")!;

    const confirmed = await post("/api/auth/reset-password/confirm", {
      token,
      password: "brand-new-pass",
    });
    expect(confirmed.statusCode).toBe(200);
    const newCookie = cookieFrom(confirmed);
    const me = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie: newCookie },
    });
    expect(me.statusCode).toBe(200);
    const old = await ctx.app.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { cookie: oldCookie },
    });
    expect(old.statusCode).toBe(401);

    const again = await post("/api/auth/reset-password/confirm", {
      token,
      password: "another-pass",
    });
    expect(again.statusCode).toBe(400);
    const oldPassword = await post("/api/auth/login", {
      email: learner.email,
      password: DEFAULT_PASSWORD,
    });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await post("/api/auth/login", {
      email: learner.email,
      password: "brand-new-pass",
    });
    expect(newPassword.statusCode).toBe(200);
  });

  it("refuses an expired reset link", async () => {
    const learner = await buildLearner(ctx);
    await post("/api/auth/reset-password", { email: learner.email });
    const mail = await smtp.waitFor(learner.email, (m) => m.subject.startsWith("Reset"));
    const token = new URL(linkIn(mail, `${PUBLIC_URL}/reset-password?`)).searchParams.get("token")!;
    await ctx.database.db.execute(
      sql`update auth_tokens set expires_at = now() - interval '1 minute' where kind = 'reset'`,
    );
    const response = await post("/api/auth/reset-password/confirm", {
      token,
      password: "new-pass-1",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/invalid or has expired/);
  });

  it("builds links from PUBLIC_URL, never from the Host header", async () => {
    const learner = await buildLearner(ctx);
    // A foreign name is refused outright (host-guard.ts); an address the portal also answers
    // on must still never end up in a link.
    await post("/api/auth/reset-password", { email: learner.email }, { host: "192.0.2.50:5000" });
    const mail = await smtp.waitFor(learner.email, (m) => m.subject.startsWith("Reset"));
    expect(mail.body).not.toContain("192.0.2.50");
    expect(linkIn(mail, `${PUBLIC_URL}/reset-password?`)).toBeTruthy();
  });
});
