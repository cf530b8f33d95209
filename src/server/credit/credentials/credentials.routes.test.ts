import { readFileSync } from "node:fs";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { type DocumentLoader, verifyCredential } from "@digitalbazaar/vc";
import { checkStatus } from "@digitalbazaar/vc-bitstring-status-list";
import Ajv2019 from "ajv/dist/2019";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Certificate,
  type CredentialCheck,
  linkedInAddUrl,
  type StoredClaimedCredit,
} from "../../../contract";
import { BUNDLED_CONTEXTS } from "../../../contract/linked-data";
import { portalDocumentLoader, verifyOpenBadge } from "../../../contract/open-badge-verification";
import { type App, buildApp } from "../../app";
import { buildConfig } from "../../config";
import { creditOffer, creditType } from "../../testing/credit-claim";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { testPasswords } from "../../testing/passwords";
import { TEST_ADMIN_KEY, type TestContext, useTestApp } from "../../testing/test-app";
import { uploadObject } from "../../testing/uploads";
import { newCertificateCode } from "../certificates/certificate-code";
import { certificates } from "../certificates/certificates.table";
import { createCredentialKeys } from "./credential-keys";
import { credentialKeys, credentials } from "./credentials.table";

const PUBLIC_URL = "http://localhost:5000";
const DID = "did:web:localhost%3A5000";

/** A JSON-LD document as parsed: the tests read and change it by its terms' names. */
// biome-ignore lint/suspicious/noExplicitAny: credentials are read as the JSON they are
type Json = Record<string, any>;

/** 1EdTech's JSON Schema of an OB 3.0 AchievementCredential, vendored in schemas/. */
const validateSchema = (() => {
  const ajv = new Ajv2019({ allErrors: true, strict: false });
  addFormats(ajv);
  const schema = JSON.parse(
    readFileSync(
      new URL("./schemas/ob_v3p0_achievementcredential_schema.json", import.meta.url),
      "utf8",
    ),
  );
  return ajv.compile(schema);
})();

function expectSchemaValid(credential: Json) {
  const valid = validateSchema(credential);
  expect(validateSchema.errors ?? [], "OB 3.0 AchievementCredential schema").toEqual([]);
  expect(valid).toBe(true);
}

/**
 * A verifier that knows nothing of the portal's code: the Digital Bazaar VC libraries, the
 * eddsa-rdfc-2022 cryptosuite and the Bitstring Status List checker. did:web resolves to the
 * portal under test (its /.well-known/did.json), status lists are fetched from it, and JSON-LD
 * contexts come from the bundled set; anything else is refused.
 */
function independentVerifier(app: () => App) {
  const fetched = async (url: string) => {
    const response = await app().inject({ method: "GET", url: new URL(url).pathname });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
    return JSON.parse(response.body) as Json;
  };
  const documentLoader: DocumentLoader = async (url) => {
    const context = BUNDLED_CONTEXTS.get(url);
    let document: unknown = context;
    if (!context && url.startsWith("did:web:")) {
      const [did, fragment] = url.split("#");
      const host = decodeURIComponent(did!.slice("did:web:".length));
      const didDocument = await fetched(`http://${host}/.well-known/did.json`);
      expect(didDocument.id).toBe(did);
      document = fragment
        ? {
            "@context": "https://w3id.org/security/multikey/v1",
            ...didDocument.verificationMethod.find((m: Json) => m.id === url),
          }
        : didDocument;
    } else if (!context && url.startsWith(`${PUBLIC_URL}/`)) {
      document = await fetched(url);
    }
    if (!document) throw new Error(`not resolvable here: ${url}`);
    return { contextUrl: null, documentUrl: url, document };
  };
  return async (credential: Json) => {
    const statusBits: boolean[] = [];
    const result = await verifyCredential({
      credential,
      suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
      documentLoader,
      // The status check fails when the credential's revocation bit is set.
      checkStatus: async (options) => {
        const status = await checkStatus({ ...options, verifyBitstringStatusListCredential: true });
        for (const r of status.results ?? []) statusBits.push(r.status === true);
        return statusBits.some(Boolean)
          ? { ...status, verified: false, error: new Error("revoked") }
          : status;
      },
    });
    return {
      verified: result.verified,
      statusBits,
      error: result.error,
      statusError: result.statusResult?.error,
    };
  };
}

/**
 * The verification page's own check, as the browser runs it (the shared verifier and its
 * same-origin document loader), its fetches answered by the portal under test. Records every
 * address it asked for: the DID document and status lists of the portal, nothing else.
 */
function pageVerifier(app: () => App) {
  const fetched: string[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    fetched.push(`${url.origin}${url.pathname} ${init?.cache ?? "default"}`);
    const response = await app().inject({ method: "GET", url: url.pathname });
    return new Response(response.body, { status: response.statusCode });
  }) as typeof globalThis.fetch;
  const check = (credential: Json) =>
    verifyOpenBadge(credential, portalDocumentLoader({ origin: PUBLIC_URL, fetch }));
  return Object.assign(check, { fetched });
}

describe("Open Badges credentials of certificates", () => {
  const ctx = useTestApp({ PUBLIC_URL });
  const videoPath = useSharedVideo(ctx);
  const verify = independentVerifier(() => ctx.app);
  const pageCheck = pageVerifier(() => ctx.app);

  let adminCookie: string;
  let learner: Awaited<ReturnType<typeof quickLearner>>;
  let learnerCookie: string;

  beforeEach(async () => {
    adminCookie = await signInAs(ctx, await quickAdmin(ctx));
    learner = await quickLearner(ctx, { name: "Ada Lovelace" });
    learnerCookie = await signInAs(ctx, learner);
  });

  /** A certificate's credential as served; every one served is held to the OB 3.0 schema. */
  const credentialOf = async (code: string, cookie = learnerCookie) => {
    const response = await call(ctx, "GET", `/api/certificates/${code}/credential`, { cookie });
    if (response.statusCode === 200) expectSchemaValid(JSON.parse(response.body));
    return response;
  };
  const publicCheck = async (code: string) => {
    const response = await call(ctx, "GET", `/api/certificates/verify/${code}/credential`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as CredentialCheck;
  };

  /**
   * A certificate issued by completing a course through the API, with 2.5 CME credits; the
   * course has a thumbnail when asked.
   */
  async function completedCertificate(options: { thumbnail?: boolean } = {}): Promise<Certificate> {
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await videoPath(adminCookie),
      modules: 1,
      title: "Clinical Ethics",
    });
    if (options.thumbnail) {
      const { title, description, category, duration } = course;
      const thumbnail = await uploadObject(ctx, adminCookie, { kind: "thumbnail" });
      const edited = await call(ctx, "PUT", `/api/courses/${course.id}`, {
        cookie: adminCookie,
        payload: { title, description, category, duration, thumbnail },
      });
      expect(edited.statusCode, edited.body).toBe(200);
    }
    const offered = await call(ctx, "PUT", `/api/courses/${course.id}/credit`, {
      cookie: adminCookie,
      payload: creditOffer(
        [creditType({ name: "CME credits", amount: 2.5, accreditingBody: "State Medical Board" })],
        { "State Medical Board": "PN-1234" },
      ),
    });
    expect(offered.statusCode, offered.body).toBe(200);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    await completeViaApi(ctx, learnerCookie, learner.id, course, 1);
    const mine = await call(ctx, "GET", "/api/certificates/mine", { cookie: learnerCookie });
    return (mine.json() as Certificate[])[0]!;
  }

  /**
   * A credit-ready certificate as another instance would have issued it: a licence, fields of
   * study, a passed exam and the steps its course required, written straight to the table.
   */
  async function creditReadyCertificate(overrides: Partial<typeof certificates.$inferInsert> = {}) {
    const credits: StoredClaimedCredit[] = [
      {
        creditTypeId: null,
        name: "CPE credits",
        amount: 3,
        accreditingBody: "NASBA",
        providerNumber: "112233",
        accreditationStatement: "Registered with NASBA.",
        designationStatement: "",
      },
    ];
    const [row] = await ctx.database.db
      .insert(certificates)
      .values({
        code: newCertificateCode(),
        userId: learner.id,
        learnerName: "Ada Lovelace",
        learnerEmail: learner.email,
        courseTitle: "Auditing Ethics",
        courseCategory: "Development",
        durationHours: 4,
        credits,
        creditHours: 3,
        creditType: "CPE credits",
        accreditingBody: "NASBA",
        providerNumber: "112233",
        issuerName: "Credo Accounting",
        examScore: 85,
        examPassedAt: new Date("2026-11-20T10:00:00Z"),
        credit: {
          creditsClaimed: 3,
          fieldsOfStudy: [
            { field: "Auditing", credits: 2 },
            { field: "Ethics", credits: 2 },
          ],
          sponsorName: "Credo Accounting",
          sponsorAddress: "1 Main Street",
          deliveryMethod: "QAS Self-Study",
          accreditationStatement: "Registered with NASBA.",
          registryNumber: "",
          officialName: "Grace Hopper",
          officialTitle: "Director",
          signatureId: null,
          licence: { licenceType: "CPA", licenceNumber: "CA-98765", licenceState: "CA", npn: "" },
          attestedAt: "2026-11-20T10:05:00.000Z",
        },
        achievement: {
          steps: ["acknowledge", "modules", "exam", "evaluation", "attestation"],
          creditsOffered: [{ name: "CPE credits", amount: 4 }],
        },
        enrolledAt: new Date("2026-11-01T09:00:00Z"),
        completedAt: new Date("2026-11-20T10:05:00Z"),
        ...overrides,
      })
      .returning();
    return row!;
  }

  it("issues each certificate as a signed OpenBadgeCredential that a verifier accepts", async () => {
    const certificate = await completedCertificate({ thumbnail: true });
    const first = await credentialOf(certificate.code);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^application\/vc\+ld\+json/);
    expect(first.headers["content-disposition"]).toContain("Credential-Clinical-Ethics.json");
    const credential = JSON.parse(first.body) as Json;

    expect(credential["@context"]).toEqual([
      "https://www.w3.org/ns/credentials/v2",
      "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
    ]);
    expect(credential.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(credential.id).toBe(certificate.verifyUrl);
    expect(credential.issuer).toMatchObject({ id: DID, name: "Credo", url: PUBLIC_URL });
    expect(credential.validFrom).toBe(certificate.issuedAt);
    const subject = credential.credentialSubject;
    expect(subject).toMatchObject({
      type: ["AchievementSubject"],
      name: "Ada Lovelace",
      activityEndDate: certificate.completedAt,
      creditsEarned: 2.5,
    });
    expect(subject.licenseNumber).toBeUndefined();
    // The course as it was certified: its steps (modules only here) and the credit offered.
    expect(subject.achievement).toMatchObject({
      type: ["Achievement"],
      name: "Clinical Ethics",
      creditsAvailable: 2.5,
    });
    // A credit course never borrows the spec's category as its field of study: this one's
    // catalogue type names no profession and the course no fields, so it names none.
    expect(subject.achievement.fieldOfStudy).toBeUndefined();
    expect(subject.achievement.description).not.toContain(certificate.courseCategory);
    // The course's own image, public because the course is published; no logo is set.
    expect(subject.achievement.image).toEqual({
      id: `${PUBLIC_URL}/objects/course-images/${certificate.courseId}`,
      type: "Image",
      caption: "Clinical Ethics",
    });
    expect(credential.issuer.image).toBeUndefined();
    const image = await call(ctx, "GET", new URL(subject.achievement.image.id).pathname);
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-type"]).toBe("image/png");
    expect(subject.achievement.criteria.narrative).toContain("Completed every module");
    expect(subject.achievement.criteria.narrative).toContain(
      "Up to 2.5 CME credits (State Medical Board, provider no. PN-1234)",
    );
    expect(subject.result).toEqual([
      expect.objectContaining({ value: "2.5", resultDescription: expect.any(String) }),
    ]);
    expect(credential.credentialStatus).toMatchObject({
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
      statusListCredential: `${PUBLIC_URL}/api/credentials/status/1`,
    });
    expect(credential.proof).toMatchObject({
      type: "DataIntegrityProof",
      cryptosuite: "eddsa-rdfc-2022",
      proofPurpose: "assertionMethod",
      verificationMethod: expect.stringMatching(new RegExp(`^${DID}#key-`)),
    });
    expect(await verify(credential)).toMatchObject({ verified: true, statusBits: [false] });
    // The verification page's check agrees, reading only the portal's own documents afresh.
    pageCheck.fetched.length = 0;
    expect(await pageCheck(credential)).toEqual({ result: "valid" });
    expect(pageCheck.fetched).toEqual([
      `${PUBLIC_URL}/.well-known/did.json no-cache`,
      `${PUBLIC_URL}/api/credentials/status/1 no-cache`,
    ]);

    // Signed once and stored: the same bytes every time, for the learner and an administrator.
    expect((await credentialOf(certificate.code)).body).toBe(first.body);
    expect((await credentialOf(certificate.code, adminCookie)).body).toBe(first.body);
    expect(await ctx.database.db.select().from(credentials)).toHaveLength(1);

    // Another learner may not have it; a code that names nothing is not found.
    const other = await signInAs(ctx, await quickLearner(ctx));
    const refused = await credentialOf(certificate.code, other);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "credentials.not_yours" });
    const unknown = await credentialOf(newCertificateCode(), adminCookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: "credentials.not_found" });

    // The public check, on the server with the same libraries.
    expect(await publicCheck(certificate.code)).toMatchObject({
      result: "valid",
      issuer: DID,
      cryptosuite: "eddsa-rdfc-2022",
      verificationMethod: credential.proof.verificationMethod,
    });
    const missing = await call(
      ctx,
      "GET",
      `/api/certificates/verify/${newCertificateCode()}/credential`,
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: "credentials.not_found" });

    // LinkedIn's add-certification form, filled in from the certificate.
    const linkedIn = new URL(linkedInAddUrl(certificate));
    expect(linkedIn.origin + linkedIn.pathname).toBe("https://www.linkedin.com/profile/add");
    expect(Object.fromEntries(linkedIn.searchParams)).toEqual({
      startTask: "CERTIFICATION_NAME",
      name: "Clinical Ethics",
      organizationName: "Credo",
      issueYear: certificate.issuedAt.slice(0, 4),
      issueMonth: String(Number(certificate.issuedAt.slice(5, 7))),
      certUrl: certificate.verifyUrl,
      certId: certificate.code.match(/.{4}/g)!.join("-"),
    });
  });

  it("writes a credit-ready certificate's licence, fields of study, exam and steps", async () => {
    const logoId = "L".repeat(24);
    const row = await creditReadyCertificate({ issuerLogoId: logoId });
    const credential = (await credentialOf(row.code)).json() as Json;
    const subject = credential.credentialSubject;
    // No course to show (its course is gone): the organisation's logo, as the issuer's too.
    const logo = {
      id: `${PUBLIC_URL}/api/organisation/logos/${logoId}`,
      type: "Image",
      caption: "Credo Accounting logo",
    };
    expect(credential.issuer.image).toEqual(logo);
    expect(subject.achievement.image).toEqual(logo);
    expect(subject).toMatchObject({ creditsEarned: 3, licenseNumber: "CA-98765" });
    expect(subject.achievement).toMatchObject({
      creditsAvailable: 4,
      fieldOfStudy: "Auditing, Ethics",
    });
    const narrative: string = subject.achievement.criteria.narrative;
    for (const step of ["About this activity", "final exam", "evaluation", "Attested"]) {
      expect(narrative).toContain(step);
    }
    const descriptions = new Map(
      (subject.achievement.resultDescription as Json[]).map((d) => [d.id, d]),
    );
    expect(
      (subject.result as Json[]).map((r) => [descriptions.get(r.resultDescription)?.name, r.value]),
    ).toEqual([
      ["CPE credits", "3"],
      ["Final exam", "85"],
    ]);
    expect(await verify(credential)).toMatchObject({ verified: true });
  });

  it("revokes by the status list: the verifier's status check fails, the page says revoked", async () => {
    const row = await creditReadyCertificate();
    const credential = (await credentialOf(row.code)).json() as Json;
    const list = await call(ctx, "GET", "/api/credentials/status/1");
    expect(list.statusCode).toBe(200);
    expect(list.headers["content-type"]).toMatch(/^application\/vc\+ld\+json/);
    const maxAge = Number(/max-age=(\d+)/.exec(String(list.headers["cache-control"]))?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(300);
    expect(JSON.parse(list.body)).toMatchObject({
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: DID,
      credentialSubject: { type: "BitstringStatusList", statusPurpose: "revocation" },
    });
    // Nothing changed: the list signed before is sent again.
    expect((await call(ctx, "GET", "/api/credentials/status/1")).body).toBe(list.body);
    const none = await call(ctx, "GET", "/api/credentials/status/2");
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: "credentials.status_list_not_found" });

    const revoked = await call(ctx, "POST", `/api/certificates/${row.id}/revoke`, {
      cookie: adminCookie,
      payload: { reason: "Issued in error" },
    });
    expect(revoked.statusCode, revoked.body).toBe(200);
    const after = await verify(credential);
    expect(after).toMatchObject({ verified: false, statusBits: [true] });
    expect(after.statusError?.message).toBe("revoked");
    expect((await publicCheck(row.code)).result).toBe("revoked");
    expect(await pageCheck(credential)).toEqual({ result: "revoked" });
    // The same credential is still served: only its status changed.
    expect((await credentialOf(row.code)).json()).toEqual(credential);
  });

  it("fails a credential with any field changed", async () => {
    const row = await creditReadyCertificate();
    const credential = (await credentialOf(row.code)).json() as Json;
    const changed = (change: (c: Json) => void) => {
      const copy = structuredClone(credential);
      change(copy);
      return copy;
    };
    const tampered = [
      changed((c) => {
        c.credentialSubject.name = "Eve Mallory";
      }),
      changed((c) => {
        c.credentialSubject.creditsEarned = 30;
      }),
      changed((c) => {
        c.validFrom = "2020-01-01T00:00:00.000Z";
      }),
    ];
    for (const copy of tampered) {
      expectSchemaValid(copy);
      const outcome = await verify(copy);
      expect(outcome.verified).toBe(false);
      expect(JSON.stringify(outcome.error?.errors?.[0]?.message ?? outcome.error?.message)).toMatch(
        /signature/i,
      );
      expect(await pageCheck(copy)).toMatchObject({ result: "invalid", problem: "altered" });
    }
    expect(await verify(credential)).toMatchObject({ verified: true });
    // The page's check names what else is wrong: another issuer's key, no proof, not a credential.
    const foreign = changed((c) => {
      c.proof.verificationMethod = "did:web:elsewhere.example#key-1";
    });
    expect(await pageCheck(foreign)).toMatchObject({ result: "invalid", problem: "unknown-key" });
    const unsigned = changed((c) => {
      delete c.proof;
    });
    expect(await pageCheck(unsigned)).toEqual({ result: "invalid", problem: "unsigned" });
    expect(await pageCheck({ hello: "world" })).toEqual({
      result: "invalid",
      problem: "not-a-credential",
    });
    // The schema has teeth: an achievement without its criteria is refused.
    const incomplete = changed((c) => {
      delete c.credentialSubject.achievement.criteria;
    });
    expect(validateSchema(incomplete)).toBe(false);
  });

  it("keeps verifying credentials signed with a key rotated out", async () => {
    const before = await creditReadyCertificate();
    const older = (await credentialOf(before.code)).json() as Json;
    const { retired, signing } = await createCredentialKeys({
      db: ctx.database.db,
      did: DID,
    }).rotate();
    expect(older.proof.verificationMethod).toBe(`${DID}#${retired}`);

    const after = await creditReadyCertificate();
    const newer = (await credentialOf(after.code)).json() as Json;
    expect(newer.proof.verificationMethod).toBe(`${DID}#${signing}`);
    const did = (await call(ctx, "GET", "/.well-known/did.json")).json() as Json;
    expect(did.assertionMethod).toEqual([`${DID}#${retired}`, `${DID}#${signing}`]);
    expect(await verify(older)).toMatchObject({ verified: true });
    expect(await verify(newer)).toMatchObject({ verified: true });
    expect(await pageCheck(older)).toEqual({ result: "valid" });
    expect((await publicCheck(before.code)).result).toBe("valid");
  });

  describe("a second instance on the same database", () => {
    let other: App;
    beforeAll(async () => {
      other = await buildApp({
        config: buildConfig({
          NODE_ENV: "test",
          DATA_DIR: ctx.dataDir,
          PUBLIC_URL,
          ADMIN_SETUP_KEY: TEST_ADMIN_KEY,
          LOG_LEVEL: "silent",
        }),
        database: ctx.database,
        adminSetupKey: { key: TEST_ADMIN_KEY, generated: false },
        logger: false,
        passwords: testPasswords,
        shedLoad: false,
      });
      await other.ready();
    });
    afterAll(async () => {
      await other?.close();
    });

    it("signs with the same key, and its credentials verify against either", async () => {
      // Both start on a database without a key: exactly one is made.
      await ctx.database.db.delete(credentialKeys);
      const keysOf = (db: TestContext["database"]["db"]) =>
        createCredentialKeys({ db, did: DID }).signingKey();
      const [mine, theirs] = await Promise.all([keysOf(ctx.database.db), keysOf(ctx.database.db)]);
      expect(mine.id).toBe(theirs.id);
      expect(await ctx.database.db.select().from(credentialKeys)).toHaveLength(1);

      const row = await creditReadyCertificate();
      const fromOther = await other.inject({
        method: "GET",
        url: `/api/certificates/${row.code}/credential`,
        headers: { cookie: learnerCookie },
      });
      expect(fromOther.statusCode, fromOther.body).toBe(200);
      const credential = JSON.parse(fromOther.body) as Json;
      expectSchemaValid(credential);
      expect(credential.proof.verificationMethod).toBe(`${DID}#${mine.id}`);
      expect(await verify(credential)).toMatchObject({ verified: true });
      expect(await independentVerifier(() => other)(credential)).toMatchObject({ verified: true });
      expect((await credentialOf(row.code)).body).toBe(fromOther.body);
    });
  });
});
