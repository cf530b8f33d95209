import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { sessions, users } from "../../people/auth/auth.table";
import { packageAttempts } from "../package-runs/package-runs.table";

/** Bytes as sent; read back as a Buffer whichever driver returns them. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const CMI5_SESSION_STATES = ["launched", "initialized", "terminated", "abandoned"] as const;
export type Cmi5SessionState = (typeof CMI5_SESSION_STATES)[number];
export const CMI5_LAUNCH_MODES = ["Normal", "Browse", "Review"] as const;
export type Cmi5LaunchMode = (typeof CMI5_LAUNCH_MODES)[number];

/**
 * One launch of one AU in a registration (cmi5's session). The fetch URL's one-time token
 * and the AU's auth token are kept as SHA-256 hashes only: a copy of the table lets no one
 * act as the AU. The session's state decides what the AU may still send: nothing before the
 * auth token was fetched, only `initialized` first, nothing once terminated or abandoned.
 */
export const cmi5Sessions = pgTable(
  "cmi5_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    registration: uuid("registration")
      .notNull()
      .references(() => packageAttempts.registration, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /**
     * The portal sign-in that launched the AU. Its auth token is good only while that sign-in
     * lasts: signing out, a restriction or a deletion (which end the sign-in) end the AU's
     * right to report too, so no credit is recorded for a learner who may no longer use the
     * portal. Null once the sign-in has ended.
     */
    portalSession: text("portal_session").references(() => sessions.idHash, {
      onDelete: "set null",
    }),
    /** The AU's place in the package's course structure, and its publisher id. */
    auIndex: integer("au_index").notNull(),
    auId: text("au_id").notNull(),
    /** The activity id the portal gave the AU (never the publisher's id, cmi5 8.1.5). */
    activityId: text("activity_id").notNull(),
    launchMode: text("launch_mode", { enum: CMI5_LAUNCH_MODES }).notNull(),
    state: text("state", { enum: CMI5_SESSION_STATES }).notNull().default("launched"),
    fetchTokenHash: text("fetch_token_hash").notNull(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }),
    authTokenHash: text("auth_token_hash"),
    authExpiresAt: timestamp("auth_expires_at", { withTimezone: true }),
    /** What the AU read before it may initialize (cmi5 10 and 11). */
    launchDataRead: boolean("launch_data_read").notNull().default(false),
    preferencesRead: boolean("preferences_read").notNull().default(false),
    /** What the AU reported in this session: each of these at most once (cmi5 9.3). */
    completed: boolean("completed").notNull().default(false),
    passed: boolean("passed").notNull().default(false),
    failed: boolean("failed").notNull().default(false),
    /** The session's time as the AU's terminated statement gave it. */
    reportedSeconds: doublePrecision("reported_seconds"),
    launchedAt: timestamp("launched_at", { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("cmi5_sessions_fetch_token_idx").on(t.fetchTokenHash),
    uniqueIndex("cmi5_sessions_auth_token_idx").on(t.authTokenHash),
    index("cmi5_sessions_registration_idx").on(t.registration, t.state),
    // A sign-in that ends finds its launches by this index (the foreign key's set null).
    index("cmi5_sessions_portal_session_idx").on(t.portalSession),
    check(
      "cmi5_sessions_state_check",
      sql`${t.state} in ('launched', 'initialized', 'terminated', 'abandoned')`,
    ),
    check(
      "cmi5_sessions_launch_mode_check",
      sql`${t.launchMode} in ('Normal', 'Browse', 'Review')`,
    ),
  ],
);

export type Cmi5SessionRow = typeof cmi5Sessions.$inferSelect;

/**
 * The statements of a registration, the AU's and the LMS's own, in the order they were
 * stored (`seq`): the LRS the AUs report to, scoped to the attempt whose registration it is.
 */
export const cmi5Statements = pgTable(
  "cmi5_statements",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    id: uuid("id").notNull(),
    registration: uuid("registration")
      .notNull()
      .references(() => packageAttempts.registration, { onDelete: "cascade" }),
    verb: text("verb").notNull(),
    objectId: text("object_id"),
    sessionId: uuid("session_id"),
    statement: jsonb("statement").$type<Record<string, unknown>>().notNull(),
    storedAt: timestamp("stored_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("cmi5_statements_id_idx").on(t.id),
    index("cmi5_statements_registration_idx").on(t.registration, t.seq),
  ],
);

export type Cmi5StatementRow = typeof cmi5Statements.$inferSelect;

/**
 * xAPI activity state documents, within a registration: the AU's own (bookmarks, suspend
 * data) and the LMS's `LMS.LaunchData`, which only the LMS writes.
 */
export const cmi5States = pgTable(
  "cmi5_states",
  {
    registration: uuid("registration")
      .notNull()
      .references(() => packageAttempts.registration, { onDelete: "cascade" }),
    activityId: text("activity_id").notNull(),
    stateId: text("state_id").notNull(),
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.registration, t.activityId, t.stateId] })],
);

export type Cmi5StateRow = typeof cmi5States.$inferSelect;

/** xAPI agent profile documents of a learner (cmi5's `cmi5LearnerPreferences`). */
export const cmi5AgentProfiles = pgTable(
  "cmi5_agent_profiles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    profileId: text("profile_id").notNull(),
    contentType: text("content_type").notNull(),
    content: bytea("content").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.profileId] })],
);

export type Cmi5AgentProfileRow = typeof cmi5AgentProfiles.$inferSelect;

/**
 * What the AUs of a registration have stored, in bytes (xapi-storage.ts counts them): the
 * statements they sent and the state documents they keep. Bounded, so that one learner's
 * content cannot fill the portal's database; written while the registration's attempt is
 * locked, so two writes never count from the same figure.
 */
export const cmi5RegistrationUsage = pgTable("cmi5_registration_usage", {
  registration: uuid("registration")
    .primaryKey()
    .references(() => packageAttempts.registration, { onDelete: "cascade" }),
  bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
});
