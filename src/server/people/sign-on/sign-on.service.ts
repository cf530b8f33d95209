import { createHash, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { type AuditDetails, MAX_NAME_LENGTH, type SignOnRefusal } from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { SecretBox } from "../../lib/secret-box";
import { setSessionCookie } from "../../plugins/sessions";
import type { AuthService, UserRow } from "../auth/auth.service";
import type { SessionsService } from "../auth/sessions.service";
import type { AuditTrail } from "./audit-trail";
import type { IdentityProvidersService } from "./identity-providers.service";
import {
  type ExternalIdentity,
  type LoadedProvider,
  type SignOnProtocol,
  SignOnRefused,
} from "./protocol";
import { providerNotFound, userNotFound } from "./sign-on.errors";
import { createSignOnRepository } from "./sign-on.repository";
import {
  bindingOf,
  clearProviderSessionCookie,
  providerSessionOf,
  SIGN_ON_REQUEST_TTL_MS,
  setBindingCookie,
  setProviderSessionCookie,
} from "./sign-on-cookies";
import type { SignOnRequestRow } from "./sign-on-requests.table";

export interface SignOnDeps {
  db: Database;
  auth: AuthService;
  sessions: SessionsService;
  audit: AuditTrail;
  providers: IdentityProvidersService;
  protocols: readonly SignOnProtocol[];
  box: SecretBox | undefined;
  secureCookies: boolean;
  /** The sign-on clock (request expiry); tests move it by hand. */
  now?: () => Date;
}

/** 256 random bits, URL-safe: the `state` and the binding secret. */
const randomSecret = () => randomBytes(32).toString("base64url");
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

type Purpose = SignOnRequestRow["purpose"];
type ProviderRef = Pick<LoadedProvider, "id" | "name">;

const domainOf = (email: string) => email.slice(email.lastIndexOf("@") + 1);

/**
 * A created learner's name: the provider's, within the portal's own limit (a longer one could
 * then never be saved again from the profile), else the email.
 */
const learnerNameOf = (name: string | undefined, email: string) =>
  name?.replace(/\s+/g, " ").trim().slice(0, MAX_NAME_LENGTH).trimEnd() || email;

export function createSignOnService(deps: SignOnDeps) {
  const repo = createSignOnRepository(deps.db);
  const now = deps.now ?? (() => new Date());

  async function audit(
    tx: Executor,
    type: "sign_on.signed_in" | "sign_on.refused" | "sign_on.learner_created",
    provider: ProviderRef,
    user: UserRow | undefined,
    details: AuditDetails = {},
  ) {
    await deps.audit.append(tx, {
      type,
      actor: user ? { id: user.id, role: user.role } : null,
      learnerId: user?.role === "learner" ? user.id : null,
      details: { providerId: provider.id, providerName: provider.name, ...details },
    });
  }

  /**
   * Who this identity is in Credo, by the rules of single sign-on; throws the refusal.
   * `undefined` means nobody yet, and the provider may create the learner.
   */
  async function userFor(
    provider: LoadedProvider,
    identity: ExternalIdentity,
  ): Promise<{ user: UserRow | undefined; bound: boolean; email?: string }> {
    const identityRow = await repo.findIdentity(provider.id, identity.subject);
    if (identityRow) {
      const user = await deps.auth.findUser(identityRow.userId);
      if (!user) throw new SignOnRefused("not_registered", "bound user no longer exists");
      return { user, bound: true };
    }
    const email = identity.email?.trim().toLowerCase();
    if (!email?.includes("@")) throw new SignOnRefused("email_missing");
    if (!provider.domains.includes(domainOf(email))) {
      throw new SignOnRefused("domain_not_served", domainOf(email));
    }
    const user = await deps.auth.findUserByEmail(email);
    if (!user) {
      if (!provider.createsLearners) throw new SignOnRefused("not_registered", "unknown email");
      return { user: undefined, bound: false, email };
    }
    // Administrators sign in through a provider only once they linked it from their profile.
    if (user.role === "admin")
      throw new SignOnRefused("not_registered", "administrator not linked");
    // The email's owner is already someone else at this provider: the address moved.
    if (await repo.findUserIdentity(provider.id, user.id)) {
      throw new SignOnRefused("link_conflict", "account bound to another subject");
    }
    return { user, bound: false, email };
  }

  /** The portal's own rule of who may sign in, refused as a sign-on refusal. */
  function assertMaySignIn(user: UserRow) {
    const refusal = deps.auth.signInRefusal(user);
    if (refusal === "restricted") throw new SignOnRefused("restricted");
    if (refusal === "not_registered") throw new SignOnRefused("not_registered", "not registered");
  }

  /** Binds the subject in this transaction; a subject bound meanwhile is someone else's. */
  async function bind(tx: Executor, provider: LoadedProvider, subject: string, userId: string) {
    const inserted = await createSignOnRepository(tx).insertIdentity({
      providerId: provider.id,
      subject,
      userId,
    });
    if (!inserted) throw new SignOnRefused("link_conflict", "subject bound meanwhile");
  }

  async function startSession(
    request: FastifyRequest,
    reply: FastifyReply,
    provider: LoadedProvider,
    user: UserRow,
    identity: ExternalIdentity,
  ) {
    const session = await deps.sessions.create({
      userId: user.id,
      persistent: false,
      userAgent: request.headers["user-agent"],
      ip: request.ip,
      replacing: request.session?.idHash,
    });
    setSessionCookie(reply, session, deps.secureCookies);
    if (deps.box) {
      setProviderSessionCookie(
        reply,
        deps.box,
        {
          providerId: provider.id,
          subject: identity.subject,
          sessionIndex: identity.sessionIndex,
          credoSession: session.idHash,
        },
        deps.secureCookies,
      );
    }
  }

  /** Audits a refusal; answers the page that tells the browser why. */
  async function recordRefusal(
    request: FastifyRequest,
    provider: ProviderRef,
    reason: SignOnRefusal,
    detail: string | undefined,
    purpose: Purpose,
  ) {
    const user = purpose === "link" ? (request.session?.user ?? undefined) : undefined;
    await audit(deps.db, "sign_on.refused", provider, user, {
      reason,
      ...(detail ? { detail: detail.slice(0, 300) } : {}),
    });
    request.log.info({ providerId: provider.id, reason, detail }, "sign-on refused");
    const page = purpose === "link" ? "/profile" : "/";
    return `${page}?${new URLSearchParams({ signOnError: reason })}`;
  }

  const service = {
    /** The sign-in page's buttons: every provider, by name. */
    async providersForSignIn() {
      const rows = await deps.providers.listRows();
      return rows.map(({ id, name, protocol }) => ({ id, name, protocol }));
    },

    /** The provider serving the email's domain, for the sign-in page's hint. */
    async discover(email: string) {
      const row = await deps.providers.findByDomain(domainOf(email.trim().toLowerCase()));
      return row ? { id: row.id, name: row.name } : null;
    },

    /**
     * Starts a sign-on: records the request under the hash of a fresh `state`, bound to this
     * browser's cookie, and answers where to send the browser. Throws 404 for no provider.
     */
    async start(
      request: FastifyRequest,
      reply: FastifyReply,
      providerId: string,
      purpose: Purpose,
    ): Promise<string> {
      const provider = await deps.providers.load(providerId);
      if (!provider) throw providerNotFound();
      const protocol = deps.protocols.find((p) => p.protocol === provider.protocol);
      const state = randomSecret();
      let started: Awaited<ReturnType<SignOnProtocol["start"]>>;
      try {
        if (!protocol) throw new Error(`no ${provider.protocol} protocol`);
        started = await protocol.start(provider, state);
      } catch (error) {
        request.log.warn({ err: error, providerId }, "identity provider unavailable");
        const detail = error instanceof Error ? error.message : String(error);
        return recordRefusal(request, provider, "provider_unavailable", detail, purpose);
      }
      const binding = bindingOf(request) ?? randomSecret();
      const at = now();
      await repo.deleteExpiredRequests(at);
      await repo.insertRequest({
        stateHash: sha256(state),
        providerId,
        bindingHash: sha256(binding),
        purpose,
        userId: purpose === "link" ? (request.session?.user.id ?? null) : null,
        kept: started.kept,
        expiresAt: new Date(at.getTime() + SIGN_ON_REQUEST_TTL_MS),
      });
      setBindingCookie(reply, binding, deps.secureCookies);
      return started.redirectTo;
    },

    /**
     * The request a provider's answer comes back to, taken once: it must be this provider's,
     * started in this browser (its binding cookie), unexpired and unused.
     */
    async takeRequest(
      request: FastifyRequest,
      providerId: string,
      state: string | undefined,
    ): Promise<SignOnRequestRow> {
      const binding = bindingOf(request);
      if (!state) throw new SignOnRefused("request_unknown", "no state");
      if (!binding) throw new SignOnRefused("request_unknown", "no binding cookie");
      const row = await repo.takeRequest({
        stateHash: sha256(state),
        providerId,
        bindingHash: sha256(binding),
        now: now(),
      });
      if (!row)
        throw new SignOnRefused("request_unknown", "unknown, expired, used or other browser");
      return row;
    },

    /**
     * Applies the rules to a verified identity, records the sign-on, starts the Credo session
     * and sends the browser on by role (or back to the profile after linking). Throws the
     * SignOnRefused that `complete` turns into the refusal page.
     */
    async finish(
      request: FastifyRequest,
      reply: FastifyReply,
      provider: LoadedProvider,
      requestRow: SignOnRequestRow,
      identity: ExternalIdentity,
    ) {
      if (requestRow.purpose === "link") {
        const user = request.session?.user;
        if (!user || user.id !== requestRow.userId) {
          throw new SignOnRefused("request_unknown", "link started by another session");
        }
        const existing = await repo.findIdentity(provider.id, identity.subject);
        if (existing && existing.userId !== user.id) {
          throw new SignOnRefused("link_conflict", "subject bound to another user");
        }
        // One account at a provider per Credo account: a second would be a lasting way in
        // that whoever held the session a moment could leave behind.
        if (!existing && (await repo.findUserIdentity(provider.id, user.id))) {
          throw new SignOnRefused("link_conflict", "account already bound at this provider");
        }
        await deps.db.transaction(async (tx) => {
          if (!existing) await bind(tx, provider, identity.subject, user.id);
          await audit(tx, "sign_on.signed_in", provider, user, { linked: true });
        });
        return reply.redirect("/profile", 302);
      }
      const found = await userFor(provider, identity);
      let user = found.user;
      if (user) {
        assertMaySignIn(user);
        const known = user;
        await deps.db.transaction(async (tx) => {
          if (!found.bound) await bind(tx, provider, identity.subject, known.id);
          await audit(tx, "sign_on.signed_in", provider, known);
        });
      } else {
        const email = found.email!;
        user = await deps.auth.createLearnerBySignOn(
          { email, name: learnerNameOf(identity.name, email), providerId: provider.id },
          async (tx, created) => {
            await bind(tx, provider, identity.subject, created.id);
            await audit(tx, "sign_on.learner_created", provider, created, {
              learnerName: created.name,
              learnerEmail: created.email,
            });
            await audit(tx, "sign_on.signed_in", provider, created);
          },
        );
        if (!user) throw new SignOnRefused("not_registered", "email registered meanwhile");
      }
      await startSession(request, reply, provider, user, identity);
      return reply.redirect(user.role === "admin" ? "/admin" : "/learner", 302);
    },

    /** Records the refusal and sends the browser to the page that says why. */
    async refuse(
      request: FastifyRequest,
      reply: FastifyReply,
      provider: ProviderRef,
      reason: SignOnRefusal,
      detail?: string,
      purpose: Purpose = "sign-in",
    ) {
      const target = await recordRefusal(request, provider, reason, detail, purpose);
      return reply.redirect(target, 302);
    },

    /**
     * A protocol's callback in one call: takes the request, lets the protocol verify the
     * answer against what was kept, and finishes, or refuses whatever `verify` throws as a
     * SignOnRefused.
     */
    async complete(
      request: FastifyRequest,
      reply: FastifyReply,
      providerId: string,
      state: string | undefined,
      verify: (provider: LoadedProvider, requestRow: SignOnRequestRow) => Promise<ExternalIdentity>,
    ) {
      const provider = await deps.providers.load(providerId);
      if (!provider) {
        return service.refuse(request, reply, { id: providerId, name: "" }, "provider_unavailable");
      }
      let requestRow: SignOnRequestRow | undefined;
      try {
        requestRow = await service.takeRequest(request, providerId, state);
        const identity = await verify(provider, requestRow);
        return await service.finish(request, reply, provider, requestRow, identity);
      } catch (error) {
        if (!(error instanceof SignOnRefused)) throw error;
        return service.refuse(
          request,
          reply,
          provider,
          error.reason,
          error.detail,
          requestRow?.purpose,
        );
      }
    },

    /** Who created a user and which providers their account is bound to (administrators). */
    async user(userId: string) {
      const user = await deps.auth.findUser(userId);
      if (!user) throw userNotFound();
      const creator = user.createdBySignOn
        ? await deps.providers.load(user.createdBySignOn).catch(() => undefined)
        : undefined;
      return {
        createdBySignOn: user.createdBySignOn ? { providerName: creator?.name ?? null } : null,
        links: await service.links(userId),
      };
    },

    /** The providers the user's account is linked to (their profile). */
    async links(userId: string) {
      const rows = await repo.linksOf(userId);
      return rows.map((r) => ({ ...r, linkedAt: r.linkedAt.toISOString() }));
    },

    /**
     * At sign-out: where the browser goes next when this session came from a provider with
     * single logout. Called before the Credo session ends; forgets the provider session.
     */
    async logoutUrl(request: FastifyRequest, reply: FastifyReply): Promise<string | undefined> {
      if (!deps.box) return undefined;
      const held = providerSessionOf(request, deps.box);
      if (!held) return undefined;
      clearProviderSessionCookie(reply, deps.secureCookies);
      if (!request.session || held.credoSession !== request.session.idHash) return undefined;
      try {
        const provider = await deps.providers.load(held.providerId);
        const protocol = deps.protocols.find((p) => p.protocol === provider?.protocol);
        if (!provider || !protocol?.logoutUrl) return undefined;
        return await protocol.logoutUrl(provider, {
          subject: held.subject,
          sessionIndex: held.sessionIndex,
        });
      } catch (error) {
        // Credo's own session ends regardless; the provider's stays as it was.
        request.log.warn({ err: error }, "single logout unavailable");
        return undefined;
      }
    },
  };
  return service;
}

export type SignOnService = ReturnType<typeof createSignOnService>;
