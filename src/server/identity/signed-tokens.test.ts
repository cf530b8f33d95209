import { execFileSync } from "node:child_process";
import { createSign, randomBytes, randomInt } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIREBASE_NOT_CONFIGURED } from "../../contract";
import { buildConfig } from "../config";
import { expectErrorBody } from "../testing/errors";
import { DEFAULT_PASSWORD } from "../testing/factories";
import { userById } from "../testing/inspect";
import { quickUser } from "../testing/learning";
import { useTestApp } from "../testing/test-app";
import { createIdentityService, type IdentityService } from "./firebase-identity";

/**
 * The production verification path, offline: firebase-admin fetches Google's signing
 * certificates and looks the user up (revocation check) over HTTPS. An HTTP agent (a
 * public firebase-admin option) routes those requests to a local TLS server playing
 * www.googleapis.com and identitytoolkit.googleapis.com, whose certificates we make here.
 * Tokens are signed locally with RS256, as Firebase signs them. No emulator host is set,
 * so signatures really are checked.
 */
const PROJECT = "credo-signed-test";
const KID = "test-kid-1";

function openssl(dir: string, cn: string, extra: string[] = []) {
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      `/CN=${cn}`,
      "-keyout",
      join(dir, `${cn}.key`),
      "-out",
      join(dir, `${cn}.crt`),
      ...extra,
    ],
    { stdio: "ignore" },
  );
  return {
    key: readFileSync(join(dir, `${cn}.key`), "utf8"),
    cert: readFileSync(join(dir, `${cn}.crt`), "utf8"),
  };
}

function jwt(header: object, payload: object, key?: string) {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString("base64url");
  const input = `${encode(header)}.${encode(payload)}`;
  if (!key) return `${input}.`;
  return `${input}.${createSign("RSA-SHA256").update(input).sign(key).toString("base64url")}`;
}

interface FakeGoogle {
  server: Server;
  agent: Agent;
  lookupDown: boolean;
  signingKey: string;
  otherKey: string;
  dir: string;
}

async function startFakeGoogle(): Promise<FakeGoogle> {
  const dir = mkdtempSync(join(tmpdir(), "credo-signed-"));
  const tls = openssl(dir, "googleapis.test", [
    "-addext",
    "subjectAltName=DNS:www.googleapis.com,DNS:identitytoolkit.googleapis.com",
  ]);
  const signing = openssl(dir, "signing");
  const other = openssl(dir, "other");
  const fake = { lookupDown: false } as FakeGoogle;
  fake.server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    if (request.url?.startsWith("/robot/v1/metadata/x509/securetoken")) {
      response.writeHead(200, {
        "content-type": "application/json",
        "cache-control": "public, max-age=3600",
      });
      response.end(JSON.stringify({ [KID]: signing.cert }));
      return;
    }
    if (request.url?.includes("/accounts:lookup")) {
      let body = "";
      request.on("data", (c: Buffer) => {
        body += c.toString();
      });
      request.on("end", () => {
        if (fake.lookupDown) {
          response.writeHead(503, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: { code: 503, message: "UNAVAILABLE" } }));
          return;
        }
        const uid = (JSON.parse(body) as { localId: string[] }).localId[0];
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            users: [{ localId: uid, email: `${uid}@example.com`, emailVerified: true }],
          }),
        );
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
  const { port } = fake.server.address() as AddressInfo;
  const agent = new Agent({ ca: tls.cert, keepAlive: false });
  // Every connection goes to the local server; TLS still checks the certificate's names.
  (agent as unknown as { createConnection: unknown }).createConnection = (
    options: { servername?: string; host?: string },
    callback: unknown,
  ) =>
    connect(
      { host: "127.0.0.1", port, servername: options.servername ?? options.host, ca: tls.cert },
      callback as () => void,
    );
  fake.agent = agent;
  fake.signingKey = signing.key;
  fake.otherKey = other.key;
  fake.dir = dir;
  return fake;
}

function claims(uid: string, overrides: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    auth_time: now - 10,
    user_id: uid,
    sub: uid,
    iat: now - 10,
    exp: now + 3600,
    email: `${uid}@example.com`,
    email_verified: true,
    firebase: { identities: {}, sign_in_provider: "password" },
    ...overrides,
  };
}

const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe("ID-token verification with signed tokens (no emulator)", () => {
  let fake: FakeGoogle;
  let identity: IdentityService;
  const previousHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  beforeAll(async () => {
    // Unsigned tokens are accepted only with the emulator host set: make sure it is not.
    delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    fake = await startFakeGoogle();
    identity = await createIdentityService(
      { projectId: PROJECT },
      {
        httpAgent: fake.agent,
        credential: {
          getAccessToken: async () => ({ access_token: "test-access-token", expires_in: 3600 }),
        },
      },
    );
  });
  afterAll(async () => {
    if (previousHost !== undefined) process.env.FIREBASE_AUTH_EMULATOR_HOST = previousHost;
    fake?.server.close();
    if (fake) rmSync(fake.dir, { recursive: true, force: true });
  });

  const ctx = useTestApp(
    {
      FIREBASE_PROJECT_ID: PROJECT,
      FIREBASE_API_KEY: "test-api-key",
      FIREBASE_AUTH_DOMAIN: `${PROJECT}.firebaseapp.com`,
    },
    { identity: () => identity },
  );

  const header = { alg: "RS256", kid: KID, typ: "JWT" };

  it("accepts a correctly signed token and reports only what it verified", async () => {
    const token = jwt(header, claims("uid-good"), fake.signingKey);
    expect(await identity.verifyIdToken(token)).toEqual({
      uid: "uid-good",
      email: "uid-good@example.com",
      emailVerified: true,
    });
  });

  it.each([
    ["unsigned (alg none)", () => jwt({ alg: "none", typ: "JWT" }, claims("uid-x"))],
    ["signed with another key", () => jwt(header, claims("uid-x"), fake.otherKey)],
    [
      "expired",
      () =>
        jwt(
          header,
          claims("uid-x", {
            iat: Math.floor(Date.now() / 1000) - 7200,
            exp: Math.floor(Date.now() / 1000) - 3600,
          }),
          fake.signingKey,
        ),
    ],
    [
      "for another project",
      () => jwt(header, claims("uid-x", { aud: "other-project" }), fake.signingKey),
    ],
    [
      "from another issuer",
      () => jwt(header, claims("uid-x", { iss: "https://evil.example.com/x" }), fake.signingKey),
    ],
    [
      "with an unknown key id",
      () => jwt({ ...header, kid: "nope" }, claims("uid-x"), fake.signingKey),
    ],
  ])("refuses a token %s with 401 and no detail", async (_name, make) => {
    const learner = await quickUser(ctx, { email: "uid-x@example.com" });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/firebase-sync",
      payload: { firebaseIdToken: make() },
      remoteAddress: address(),
    });
    expect(response.statusCode).toBe(401);
    expectErrorBody(response);
    expect((await userById(ctx, learner.id))?.firebaseUid).toBeNull();
  });

  it("signs in with a valid signed token and binds its uid", async () => {
    const uid = `uid-${randomBytes(3).toString("hex")}`;
    const learner = await quickUser(ctx, { email: `${uid}@example.com` });
    const response = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: learner.email, firebaseIdToken: jwt(header, claims(uid), fake.signingKey) },
      remoteAddress: address(),
    });
    expect(response.statusCode).toBe(200);
    expect((await userById(ctx, learner.id))?.firebaseUid).toBe(uid);
  });

  it("answers 503 when the identity service cannot be asked; the password path still works", async () => {
    const uid = `uid-${randomBytes(3).toString("hex")}`;
    const learner = await quickUser(ctx, { email: `${uid}@example.com` });
    fake.lookupDown = true;
    try {
      const viaToken = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: {
          email: learner.email,
          firebaseIdToken: jwt(header, claims(uid), fake.signingKey),
        },
        remoteAddress: address(),
      });
      expect(viaToken.statusCode).toBe(503);
      // SPEC section 4: the client then logs the failure and tries the server-only path.
      const viaPassword = await ctx.app.inject({
        method: "POST",
        url: "/api/auth/login",
        payload: { email: learner.email, password: DEFAULT_PASSWORD },
        remoteAddress: address(),
      });
      expect(viaPassword.statusCode).toBe(200);
    } finally {
      fake.lookupDown = false;
    }
  });
});

describe("identity helpers without Firebase", () => {
  const ctx = useTestApp();

  it("raise 'Firebase not configured'", async () => {
    const identity = await createIdentityService(undefined);
    expect(identity.configured).toBe(false);
    for (const call of [
      () => identity.verifyIdToken("x"),
      () => identity.setDisabled("uid", true),
      () => identity.deleteUser("uid"),
      () => identity.updatePassword("uid", "secret"),
      () => identity.exists("uid"),
    ]) {
      await expect(call()).rejects.toThrow(FIREBASE_NOT_CONFIGURED);
    }
  });

  it("answers the identity-service routes with 'Firebase not configured'", async () => {
    const sync = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/firebase-sync",
      payload: { firebaseIdToken: "token" },
    });
    expect(sync.statusCode).toBe(400);
    expect(sync.json()).toEqual({
      message: FIREBASE_NOT_CONFIGURED,
      code: "auth.identity_not_configured",
    });
    const config = await ctx.app.inject({ method: "GET", url: "/api/config" });
    expect(config.json().firebase).toBeNull();
    expect(String(config.headers["content-security-policy"])).not.toMatch(/googleapis|firebase/);
  });

  it("refuses the emulator host in production: its tokens are unsigned", () => {
    expect(() =>
      buildConfig({
        NODE_ENV: "production",
        FIREBASE_PROJECT_ID: "p",
        FIREBASE_API_KEY: "k",
        FIREBASE_AUTH_DOMAIN: "p.firebaseapp.com",
        FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9099",
      }),
    ).toThrow(/FIREBASE_AUTH_EMULATOR_HOST/);
  });
});
