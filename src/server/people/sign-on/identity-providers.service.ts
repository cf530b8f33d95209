import type { IdentityProvider, ParsedIdentityProviderInput } from "../../../contract";
import type { Database } from "../../db/client";
import { newId } from "../../db/ids";
import type { SecretBox } from "../../lib/secret-box";
import type { AuditTrail } from "./audit-trail";
import type { IdentityProviderRow } from "./identity-providers.table";
import { type LoadedProvider, type SignOnProtocol, signOnUrls } from "./protocol";
import {
  domainTaken,
  protocolMismatch,
  protocolUnavailable,
  providerNotFound,
  secretsKeyMissing,
} from "./sign-on.errors";
import { createSignOnRepository } from "./sign-on.repository";

export interface IdentityProvidersDeps {
  db: Database;
  audit: AuditTrail;
  /** Undefined in production without SECRETS_KEY: no secret can then be stored. */
  box: SecretBox | undefined;
  protocols: readonly SignOnProtocol[];
  publicUrl: string;
}

type Actor = { id: string; role: "admin" | "learner" };

const text = (value: unknown, fallback = "") => (typeof value === "string" ? value : fallback);

/** The administrator's settings split into what is shared, what is clear and what is secret. */
function splitInput(input: ParsedIdentityProviderInput) {
  const { protocol, name, domains, createsLearners, ...rest } = input;
  const { clientSecret, ...settings } = rest as typeof rest & { clientSecret?: string };
  return {
    protocol,
    common: { name, domains, createsLearners },
    settings,
    secrets: clientSecret ? { clientSecret } : null,
  };
}

export function createIdentityProvidersService(deps: IdentityProvidersDeps) {
  const repo = createSignOnRepository(deps.db);

  function protocolOf(name: string): SignOnProtocol {
    const found = deps.protocols.find((p) => p.protocol === name);
    if (!found) throw protocolUnavailable(name);
    return found;
  }

  function loaded(row: IdentityProviderRow): LoadedProvider {
    if (row.secrets && !deps.box) throw secretsKeyMissing();
    return {
      id: row.id,
      protocol: row.protocol,
      name: row.name,
      domains: row.domains,
      createsLearners: row.createsLearners,
      settings: row.settings,
      secrets: row.secrets && deps.box ? JSON.parse(deps.box.open(row.secrets)) : null,
    };
  }

  function seal(secrets: object | null): string | null {
    if (!secrets) return null;
    if (!deps.box) throw secretsKeyMissing();
    return deps.box.seal(JSON.stringify(secrets));
  }

  async function assertDomainsFree(domains: string[], exceptId?: string) {
    for (const domain of domains) {
      const other = await repo.findProviderByDomain(domain);
      if (other && other.id !== exceptId) throw domainTaken(domain);
    }
  }

  /** A provider as administrators see it: settings, whether a secret is set, never the secret. */
  function toIdentityProvider(row: IdentityProviderRow): IdentityProvider {
    const urls = signOnUrls(deps.publicUrl, row.id);
    const s = row.settings;
    const common = {
      id: row.id,
      name: row.name,
      domains: row.domains,
      createsLearners: row.createsLearners,
      secretSet: row.secrets !== null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
    if (row.protocol === "oidc") {
      return {
        protocol: "oidc",
        ...common,
        issuer: text(s.issuer),
        clientId: text(s.clientId),
        scopes: text(s.scopes),
        emailClaim: text(s.emailClaim),
        nameClaim: text(s.nameClaim),
        redirectUri: urls.oidcCallback,
      };
    }
    return {
      protocol: "saml",
      ...common,
      metadataXml: typeof s.metadataXml === "string" ? s.metadataXml : null,
      metadataUrl: typeof s.metadataUrl === "string" ? s.metadataUrl : null,
      emailAttribute: text(s.emailAttribute, "email"),
      nameAttribute: text(s.nameAttribute, "name"),
      metadataLink: urls.samlMetadata,
      entityId: urls.samlEntityId,
      acsUrl: urls.samlAcs,
    };
  }

  async function rowOf(id: string) {
    const row = await repo.findProvider(id);
    if (!row) throw providerNotFound();
    return row;
  }

  return {
    toIdentityProvider,
    list: async () => (await repo.listProviders()).map(toIdentityProvider),
    get: async (id: string) => toIdentityProvider(await rowOf(id)),
    /** A provider with its secrets opened, for the protocols; undefined when it is gone. */
    async load(id: string): Promise<LoadedProvider | undefined> {
      const row = await repo.findProvider(id);
      return row ? loaded(row) : undefined;
    },
    /** The provider serving an email's domain (lower-cased), if any. */
    findByDomain: (domain: string) => repo.findProviderByDomain(domain),
    /** Every provider, for the sign-in page's buttons. */
    listRows: () => repo.listProviders(),

    async create(input: ParsedIdentityProviderInput, actor: Actor) {
      const { protocol, common, settings, secrets } = splitInput(input);
      const module = protocolOf(protocol);
      if (secrets && !deps.box) throw secretsKeyMissing();
      await assertDomainsFree(common.domains);
      const prepared = await module.prepare({ settings, secrets });
      const sealed = seal(prepared.secrets);
      const row = await deps.db.transaction(async (tx) => {
        const inserted = await createSignOnRepository(tx).insertProvider({
          id: newId(),
          protocol,
          ...common,
          settings: prepared.settings as Record<string, unknown>,
          secrets: sealed,
        });
        await deps.audit.append(tx, {
          type: "identity_provider.created",
          actor,
          details: { providerId: inserted.id, providerName: inserted.name, protocol },
        });
        return inserted;
      });
      return toIdentityProvider(row);
    },

    async update(id: string, input: ParsedIdentityProviderInput, actor: Actor) {
      const previousRow = await rowOf(id);
      const { protocol, common, settings, secrets } = splitInput(input);
      if (protocol !== previousRow.protocol) throw protocolMismatch();
      const module = protocolOf(protocol);
      if (secrets && !deps.box) throw secretsKeyMissing();
      await assertDomainsFree(common.domains, id);
      const prepared = await module.prepare({
        settings,
        secrets,
        previous: loaded(previousRow),
      });
      const sealed = seal(prepared.secrets);
      const row = await deps.db.transaction(async (tx) => {
        const updated = await createSignOnRepository(tx).updateProvider(id, {
          ...common,
          settings: prepared.settings as Record<string, unknown>,
          secrets: sealed,
        });
        if (!updated) throw providerNotFound();
        await deps.audit.append(tx, {
          type: "identity_provider.updated",
          actor,
          details: {
            providerId: id,
            providerName: updated.name,
            protocol,
            secretReplaced: secrets !== null,
          },
        });
        return updated;
      });
      return toIdentityProvider(row);
    },

    async remove(id: string, actor: Actor) {
      await deps.db.transaction(async (tx) => {
        const removed = await createSignOnRepository(tx).deleteProvider(id);
        if (!removed) throw providerNotFound();
        await deps.audit.append(tx, {
          type: "identity_provider.deleted",
          actor,
          details: { providerId: id, providerName: removed.name, protocol: removed.protocol },
        });
      });
    },
  };
}

export type IdentityProvidersService = ReturnType<typeof createIdentityProvidersService>;
