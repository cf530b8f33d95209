import { createHash } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MESSAGES } from "../../contract";
import type { Database } from "../db/client";
import { badRequest, conflict } from "./errors";
import { idempotencyKeys } from "./idempotency-keys.table";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route takes an `Idempotency-Key` header: a repeat of a request with the same key
     * by the same user answers as the first did and changes nothing. "without-body" keeps
     * no trace of the body (its answers are anonymous), so the key alone says "the same".
     */
    idempotent?: true | "without-body";
  }
}

export const IDEMPOTENCY_HEADER = "idempotency-key";
/** How long a key is remembered: long enough for any retry, short enough to sweep. */
export const IDEMPOTENCY_KEY_HOURS = 24;
/** How long a repeat waits for the first request's answer before it gives up. */
const WAIT_MS = 15_000;
/** Another instance's first request is looked for this often. */
const POLL_MS = 100;
/** Expired keys removed with each new one: more than are ever added, so the table stays small. */
const SWEEP_BATCH = 100;

const EXPIRED_BEFORE = sql.raw(`now() - interval '${IDEMPOTENCY_KEY_HOURS} hours'`);
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;
const claimed = Symbol("idempotency claim");

interface Claim {
  userId: string;
  key: string;
  /** Resolves once the claim is settled, for repeats waiting in this instance. */
  settle: () => void;
}
type Keyed = FastifyRequest & { [claimed]?: Claim };

/**
 * Idempotent creation: a form sends one key with every submit of one opening, so a double
 * click or a retry after a lost answer makes one record, not two. The first request with a
 * key claims it (a row keyed by user and key, which a unique constraint makes one); its 2xx
 * answer is stored with the claim and replayed to every repeat; any other answer frees the
 * key, so the form can be corrected and sent again with it. A repeat that arrives while the
 * first is under way waits for its answer. The same key with another body or address is a
 * mistake and refused. Requests without the header are not touched.
 */
export function registerIdempotency(app: FastifyInstance, { db }: { db: Database }) {
  // The first requests under way in this instance, for repeats to wait on without polling.
  const underWay = new Map<string, Promise<void>>();
  const idOf = (userId: string, key: string) => `${userId}\n${key}`;
  const fresh = () => gte(idempotencyKeys.createdAt, EXPIRED_BEFORE);

  const find = async (userId: string, key: string) => {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), fresh()));
    return row;
  };

  const claim = async (values: { userId: string; key: string; route: string; hash: string }) => {
    await db.execute(sql`delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys
      where created_at < ${EXPIRED_BEFORE}
      limit ${SWEEP_BATCH})`);
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...values, requestHash: values.hash })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    return inserted.length > 0;
  };

  const release = async (request: Keyed) => {
    const held = request[claimed];
    if (!held) return;
    request[claimed] = undefined;
    try {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, held.userId), eq(idempotencyKeys.key, held.key)));
    } finally {
      held.settle();
    }
  };

  // preHandler: after the route's role check and validation, so only a request that may
  // run claims a key, and its body is the one the route takes.
  app.addHook("preHandler", async (request: Keyed, reply) => {
    const mode = request.routeOptions.config?.idempotent;
    const key = request.headers[IDEMPOTENCY_HEADER];
    const userId = request.session?.user.id;
    if (!mode || key === undefined || !userId) return;
    if (typeof key !== "string" || !VISIBLE_ASCII.test(key)) {
      throw badRequest("validation.invalid_headers", MESSAGES.idempotencyKeyInvalid);
    }
    const route = `${request.method} ${request.url}`;
    const hash =
      mode === "without-body"
        ? ""
        : createHash("sha256")
            .update(JSON.stringify(request.body ?? null))
            .digest("hex");
    const id = idOf(userId, key);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const row = await find(userId, key);
      if (!row) {
        // The row of an expired key may still be there: the claim replaces it.
        await db
          .delete(idempotencyKeys)
          .where(
            and(
              eq(idempotencyKeys.userId, userId),
              eq(idempotencyKeys.key, key),
              lt(idempotencyKeys.createdAt, EXPIRED_BEFORE),
            ),
          );
        if (await claim({ userId, key, route, hash })) {
          let settle = () => {};
          underWay.set(
            id,
            new Promise<void>((resolve) => {
              settle = () => {
                underWay.delete(id);
                resolve();
              };
            }),
          );
          request[claimed] = { userId, key, settle };
          return;
        }
        continue;
      }
      if (row.route !== route || row.requestHash !== hash) {
        throw conflict("request.idempotency_key_reused", MESSAGES.idempotencyKeyReused);
      }
      if (row.status !== null) {
        return reply
          .code(row.status)
          .header("content-type", row.contentType ?? "application/json; charset=utf-8")
          .header("idempotent-replayed", "true")
          .send(row.answer ?? "");
      }
      if (Date.now() > deadline) {
        throw conflict("request.idempotency_in_progress", MESSAGES.idempotencyInProgress);
      }
      // The first request is still being answered, here or in another instance.
      await (underWay.get(id) ?? delay(POLL_MS));
    }
  });

  // The answer is stored before it leaves, so a repeat sent the moment it arrives finds it.
  app.addHook("onSend", async (request: Keyed, reply, payload) => {
    const held = request[claimed];
    if (!held) return payload;
    if (reply.statusCode >= 300 || typeof payload !== "string") {
      await release(request);
      return payload;
    }
    request[claimed] = undefined;
    try {
      await db
        .update(idempotencyKeys)
        .set({
          status: reply.statusCode,
          answer: payload,
          contentType: String(reply.getHeader("content-type") ?? ""),
        })
        .where(and(eq(idempotencyKeys.userId, held.userId), eq(idempotencyKeys.key, held.key)));
    } finally {
      held.settle();
    }
    return payload;
  });
  // A request that never got to answer frees its key. Not when the client goes away: the
  // work goes on and its answer is still stored in onSend, for the client's retry.
  app.addHook("onResponse", async (request: Keyed) => release(request));
}
