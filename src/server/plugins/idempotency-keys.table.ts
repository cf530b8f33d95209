import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The first answer to each Idempotency-Key a user sent (see idempotency.ts): a repeat with
 * the key gets that answer again instead of a second record. Kept a day, then swept.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: text("user_id").notNull(),
    key: text("key").notNull(),
    /** The method and address the key was first sent to. */
    route: text("route").notNull(),
    /** SHA-256 of the body first sent with the key ("" where the body is not kept). */
    requestHash: text("request_hash").notNull(),
    /** Null while the first request is still being answered. */
    status: integer("status"),
    answer: text("answer"),
    contentType: text("content_type"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index("idempotency_keys_created_idx").on(t.createdAt),
  ],
);
