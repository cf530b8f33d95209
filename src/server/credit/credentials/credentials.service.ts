import { randomInt } from "node:crypto";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { issue } from "@digitalbazaar/vc";
import { createCredential, createList } from "@digitalbazaar/vc-bitstring-status-list";
import { type Certificate, type CredentialCheck, courseImagePath } from "../../../contract";
import {
  createDocumentLoader,
  type DidDocument,
  MULTIKEY_CONTEXT,
  resolveDidUrl,
} from "../../../contract/linked-data";
import { verifyOpenBadge } from "../../../contract/open-badge-verification";
import type { Database } from "../../db/client";
import type { CertificateAchievement } from "../certificates/certificates.read-model";
import { createCredentialKeys } from "./credential-keys";
import { credentialNotFound, notYourCredential, statusListNotFound } from "./credentials.errors";
import { createCredentialsRepository } from "./credentials.repository";
import { didDocumentOf, didWebOf } from "./did-web";
import { openBadgeCredential } from "./open-badge";

/**
 * Bits per status list: 16 KB, the Bitstring Status List's minimum for group privacy. Bits
 * are taken at random (a verifier fetching the list learns nothing from an index), up to half
 * of a list, then the next list is used.
 */
const STATUS_LIST_LENGTH = 131_072;
const STATUS_LIST_FILL = STATUS_LIST_LENGTH / 2;

/** Where the status lists are served under PUBLIC_URL: `/api/credentials/status/1`. */
const STATUS_LISTS_PATH = "/api/credentials/status/";

/** The signed-in user asking: learners download only their own credentials. */
type Viewer = { id: string; role: "admin" | "learner" };

export interface CredentialsServiceDeps {
  db: Database;
  /** PUBLIC_URL: the issuer's did:web, the credentials' ids and the status lists' addresses. */
  publicUrl: string;
  certificates: {
    snapshotByCode(
      code: string,
    ): Promise<
      { certificate: Certificate; achievement: CertificateAchievement | null } | undefined
    >;
  };
  /** The catalogue: the image anyone may see of a published course with a thumbnail. */
  courseImages: { publishedImage(courseId: string): Promise<unknown> };
}

/**
 * Open Badges 3.0 credentials of certificates: the issuer's did:web and its keys, each
 * certificate's signed credential, the signed revocation lists, and the check the public
 * verification page shows (docs/credentials.md).
 */
export function createCredentialsService(deps: CredentialsServiceDeps) {
  const { db } = deps;
  const repo = createCredentialsRepository(db);
  const publicUrl = deps.publicUrl.replace(/\/+$/, "");
  const did = didWebOf(publicUrl);
  const keys = createCredentialKeys({ db, did });
  const statusListUrl = (list: number) => `${publicUrl}${STATUS_LISTS_PATH}${list}`;
  /** The number of one of the portal's own status lists from its address. */
  const statusListOf = (url: string) => {
    const prefix = `${publicUrl}${STATUS_LISTS_PATH}`;
    const rest = url.startsWith(prefix) ? url.slice(prefix.length) : "";
    return /^[1-9]\d{0,8}$/.test(rest) ? Number(rest) : undefined;
  };

  /** Signs with the current key (eddsa-rdfc-2022 Data Integrity proof). */
  async function sign(credential: Record<string, unknown>) {
    const key = await keys.signingKey();
    const pair = await Ed25519Multikey.from({
      "@context": MULTIKEY_CONTEXT,
      type: "Multikey",
      id: `${did}#${key.id}`,
      controller: did,
      publicKeyMultibase: key.publicKeyMultibase,
      secretKeyMultibase: key.secretKeyMultibase,
    });
    const suite = new DataIntegrityProof({ signer: pair.signer(), cryptosuite: eddsaRdfc2022 });
    const signed = await issue({ credential, suite, documentLoader: createDocumentLoader() });
    return { document: JSON.stringify(signed), keyId: key.id };
  }

  async function didDocument(): Promise<DidDocument> {
    const published = await keys.published();
    if (published.length > 0) return didDocumentOf(did, published);
    // A database emptied under a running portal: its key is made again, as at start.
    await keys.signingKey();
    return didDocumentOf(did, await keys.published());
  }

  /** A status bit of the certificate's own, at random in the list being filled. */
  async function takeStatusBit(certificateId: string) {
    // The list being filled, counted once: a retry only needs another random bit.
    const list = Math.floor((await repo.credentialCount()) / STATUS_LIST_FILL) + 1;
    for (let attempt = 0; attempt < 64; attempt++) {
      // After many taken bits in a row, the next list: this one is nearly full.
      const taken = await repo.takeStatusBit({
        certificateId,
        statusList: attempt < 32 ? list : list + 1,
        statusIndex: randomInt(STATUS_LIST_LENGTH),
      });
      if (taken) return taken;
      const existing = await repo.findCredential(certificateId);
      if (existing) return existing;
    }
    throw new Error("No free status bit found");
  }

  /**
   * The certificate's signed credential: signed on first request from the certificate's
   * snapshot, stored, and sent byte for byte the same every time after. Signing
   * (canonicalisation) takes tens of milliseconds, kept out of the completing transaction.
   */
  async function credentialOf(source: {
    certificate: Certificate;
    achievement: CertificateAchievement | null;
  }): Promise<string> {
    const id = source.certificate.id;
    const row = (await repo.findCredential(id)) ?? (await takeStatusBit(id));
    if (row.document) return row.document;
    const status = { listUrl: statusListUrl(row.statusList), index: row.statusIndex };
    const { courseId } = source.certificate;
    const courseImageUrl =
      courseId && (await deps.courseImages.publishedImage(courseId)) !== undefined
        ? `${publicUrl}${courseImagePath(courseId)}`
        : null;
    const { document, keyId } = await sign(
      openBadgeCredential(source, { issuerDid: did, publicUrl, status, courseImageUrl }),
    );
    // Two first requests at once both sign; the first copy stored is the one sent.
    await repo.saveSigned(id, document, keyId);
    return (await repo.findCredential(id))?.document ?? document;
  }

  /**
   * A list's signed status-list credential. Its bits are read from the certificates (a
   * revoked certificate's bit is set); it is signed again only when they changed.
   */
  async function statusListCredential(list: number): Promise<string> {
    const bits = await createList({ length: STATUS_LIST_LENGTH });
    for (const index of await repo.revokedIndexes(list)) bits.setStatus(index, true);
    const encodedList = await bits.encode();
    const stored = await repo.storedStatusList(list);
    if (stored?.encodedList === encodedList) return stored.document;
    if (!stored && !(await repo.listExists(list))) throw statusListNotFound();
    const unsigned = await createCredential({
      id: statusListUrl(list),
      list: bits,
      statusPurpose: "revocation",
    });
    const { "@context": context, id, type, credentialSubject } = unsigned;
    const { document } = await sign({
      "@context": context,
      id,
      type,
      issuer: did,
      validFrom: new Date().toISOString(),
      credentialSubject,
    });
    await repo.saveStatusList(list, encodedList, document);
    return document;
  }

  /** The portal's own documents, read from the database rather than over the network. */
  const ownDocuments = createDocumentLoader(async (url) => {
    if (url === did || url.startsWith(`${did}#`)) return resolveDidUrl(await didDocument(), url);
    const list = statusListOf(url);
    return list ? JSON.parse(await statusListCredential(list)) : undefined;
  });

  return {
    did,

    /** Makes the signing key if there is none yet: called at start. */
    async ensureSigningKey() {
      await keys.signingKey();
    },

    didDocument,

    /** A certificate's signed credential, for its learner or an administrator. */
    async credentialFor(code: string, viewer: Viewer) {
      const source = await deps.certificates.snapshotByCode(code);
      if (!source) throw credentialNotFound();
      if (viewer.role !== "admin" && source.certificate.userId !== viewer.id) {
        throw notYourCredential();
      }
      return { certificate: source.certificate, document: await credentialOf(source) };
    },

    statusListCredential,

    /**
     * The public check of a certificate's credential, run on the server with the same
     * libraries a verifier uses: the credential carries the learner's whole licence number,
     * which the public page masks, so its JSON is not sent to the page.
     */
    async check(code: string): Promise<CredentialCheck> {
      const source = await deps.certificates.snapshotByCode(code);
      if (!source) throw credentialNotFound();
      const credential = JSON.parse(await credentialOf(source)) as {
        proof?: { verificationMethod?: string; cryptosuite?: string };
      };
      const { result } = await verifyOpenBadge(credential, ownDocuments);
      return {
        result,
        issuer: did,
        verificationMethod: credential.proof?.verificationMethod ?? null,
        cryptosuite: credential.proof?.cryptosuite ?? null,
        checkedAt: new Date().toISOString(),
      };
    },
  };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
