import { randomBytes } from "node:crypto";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import type { Database } from "../../db/client";
import { createCredentialsRepository } from "./credentials.repository";
import type { CredentialKeyRow } from "./credentials.table";

/**
 * The issuer's Ed25519 keys, kept in the database so that every instance signs with the same
 * one, on the embedded database as on PostgreSQL.
 */
export function createCredentialKeys(deps: { db: Database; did: string }) {
  const { db, did } = deps;
  const repo = createCredentialsRepository(db);

  /** A new key pair, named by its day and a random suffix: `key-20261126-9f2c01ab`. */
  async function newKey() {
    const day = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    const id = `key-${day}-${randomBytes(4).toString("hex")}`;
    const pair = await Ed25519Multikey.generate({ id: `${did}#${id}`, controller: did });
    const { publicKeyMultibase, secretKeyMultibase } = await pair.export({
      publicKey: true,
      secretKey: true,
    });
    if (!secretKeyMultibase) throw new Error("The new key has no secret part");
    return { id, publicKeyMultibase, secretKeyMultibase };
  }

  return {
    /**
     * The key that signs, made the first time one is needed. Instances starting together on
     * one database each try to add it under an advisory lock, and a unique index lets one row
     * in: they all sign with the same key.
     */
    async signingKey(): Promise<CredentialKeyRow> {
      const existing = await repo.signingKey();
      if (existing) return existing;
      return db.transaction(async (tx) => {
        const txRepo = createCredentialsRepository(tx);
        await txRepo.lockKeys();
        const current = await txRepo.signingKey();
        if (current) return current;
        const key = (await txRepo.insertSigningKey(await newKey())) ?? (await txRepo.signingKey());
        if (!key) throw new Error("No signing key could be added");
        return key;
      });
    },

    /**
     * Retires the signing key and adds a new one that signs from now on. The retired key stays
     * published in the DID document, so credentials signed with it still verify.
     */
    async rotate(): Promise<{ retired: string | null; signing: string }> {
      return db.transaction(async (tx) => {
        const txRepo = createCredentialsRepository(tx);
        await txRepo.lockKeys();
        const retired = await txRepo.retireSigningKey();
        const added = await txRepo.insertSigningKey(await newKey());
        if (!added) throw new Error("The new signing key could not be added");
        return { retired: retired?.id ?? null, signing: added.id };
      });
    },

    /** Every key ever used, oldest first: all of them stay in the DID document. */
    published: () => repo.allKeys(),
  };
}
