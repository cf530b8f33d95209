import { and, asc, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  type Cmi5AgentProfileRow,
  type Cmi5SessionRow,
  type Cmi5StatementRow,
  type Cmi5StateRow,
  cmi5AgentProfiles,
  cmi5RegistrationUsage,
  cmi5Sessions,
  cmi5Statements,
  cmi5States,
} from "./cmi5.table";
import { ROW_BYTES } from "./xapi-storage";
import { LAUNCH_DATA, VERBS } from "./xapi-values";

type SessionUpdate = Partial<Omit<Cmi5SessionRow, "id" | "registration" | "userId">>;
interface Document {
  contentType: string;
  content: Buffer;
}

/** A state document's bytes as the storage bound counts them (xapi-storage.ts documentBytes). */
const stateBytes = sql<number>`(${ROW_BYTES} + octet_length(${cmi5States.activityId})
  + octet_length(${cmi5States.stateId}) + octet_length(${cmi5States.content}))::float8`;

export function createCmi5Repository(db: Executor) {
  return {
    async insertSession(values: typeof cmi5Sessions.$inferInsert): Promise<Cmi5SessionRow> {
      const [row] = await db.insert(cmi5Sessions).values(values).returning();
      return row!;
    },

    /** The session an auth token's hash names, unlocked. */
    async findSessionByAuthToken(hash: string): Promise<Cmi5SessionRow | undefined> {
      const [row] = await db
        .select()
        .from(cmi5Sessions)
        .where(eq(cmi5Sessions.authTokenHash, hash));
      return row;
    },

    /** The session a token's hash names (fetch or auth), locked until the transaction ends. */
    async lockSessionByToken(
      kind: "fetch" | "auth",
      hash: string,
    ): Promise<Cmi5SessionRow | undefined> {
      const column = kind === "fetch" ? cmi5Sessions.fetchTokenHash : cmi5Sessions.authTokenHash;
      const [row] = await db.select().from(cmi5Sessions).where(eq(column, hash)).for("update");
      return row;
    },

    async updateSession(id: string, values: SessionUpdate): Promise<void> {
      await db.update(cmi5Sessions).set(values).where(eq(cmi5Sessions.id, id));
    },

    /** The registration's sessions the AU never ended, oldest first. */
    async openSessions(registration: string): Promise<Cmi5SessionRow[]> {
      return db
        .select()
        .from(cmi5Sessions)
        .where(
          and(
            eq(cmi5Sessions.registration, registration),
            inArray(cmi5Sessions.state, ["launched", "initialized"]),
          ),
        )
        .orderBy(asc(cmi5Sessions.launchedAt))
        .for("update");
    },

    /** Whether an AU was completed, or passed, in any session of the registration. */
    async reported(registration: string, auId: string) {
      const [row] = await db
        .select({
          completed: sql<boolean>`coalesce(bool_or(${cmi5Sessions.completed}), false)`,
          passed: sql<boolean>`coalesce(bool_or(${cmi5Sessions.passed}), false)`,
        })
        .from(cmi5Sessions)
        .where(and(eq(cmi5Sessions.registration, registration), eq(cmi5Sessions.auId, auId)));
      return { completed: !!row?.completed, passed: !!row?.passed };
    },

    /** The AUs launched in the registration, by publisher id. */
    async launchedAus(registration: string): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ auId: cmi5Sessions.auId })
        .from(cmi5Sessions)
        .where(eq(cmi5Sessions.registration, registration));
      return new Set(rows.map((r) => r.auId));
    },

    async insertStatement(values: typeof cmi5Statements.$inferInsert): Promise<void> {
      await db.insert(cmi5Statements).values(values);
    },

    async findStatement(id: string): Promise<Cmi5StatementRow | undefined> {
      const [row] = await db.select().from(cmi5Statements).where(eq(cmi5Statements.id, id));
      return row;
    },

    /** A registration's statements in the order stored (or the reverse), after a cursor. */
    async statements(input: {
      registration: string;
      verb?: string;
      activity?: string;
      /** Stored after this (exclusive) and up to `until` (inclusive), as xAPI's query says. */
      since?: Date;
      until?: Date;
      ascending: boolean;
      afterSeq?: number;
      limit: number;
    }): Promise<Cmi5StatementRow[]> {
      const conditions = [eq(cmi5Statements.registration, input.registration)];
      if (input.verb) conditions.push(eq(cmi5Statements.verb, input.verb));
      if (input.activity) conditions.push(eq(cmi5Statements.objectId, input.activity));
      // The statement's own `stored`, the time the AU reads back, not the row's insert time.
      const stored = sql`(${cmi5Statements.statement}->>'stored')::timestamptz`;
      if (input.since) conditions.push(sql`${stored} > ${input.since.toISOString()}`);
      if (input.until) conditions.push(sql`${stored} <= ${input.until.toISOString()}`);
      if (input.afterSeq !== undefined) {
        conditions.push(
          input.ascending
            ? gt(cmi5Statements.seq, input.afterSeq)
            : sql`${cmi5Statements.seq} < ${input.afterSeq}`,
        );
      }
      return db
        .select()
        .from(cmi5Statements)
        .where(and(...conditions))
        .orderBy(input.ascending ? asc(cmi5Statements.seq) : desc(cmi5Statements.seq))
        .limit(input.limit);
    },

    async hasStatements(registration: string): Promise<boolean> {
      const [row] = await db
        .select({ seq: cmi5Statements.seq })
        .from(cmi5Statements)
        .where(eq(cmi5Statements.registration, registration))
        .limit(1);
      return row !== undefined;
    },

    /** The blocks and course the LMS already said were satisfied in the registration. */
    async satisfiedObjects(registration: string): Promise<Set<string>> {
      const rows = await db
        .select({ objectId: cmi5Statements.objectId })
        .from(cmi5Statements)
        .where(
          and(
            eq(cmi5Statements.registration, registration),
            eq(cmi5Statements.verb, VERBS.satisfied),
          ),
        );
      return new Set(rows.flatMap((r) => (r.objectId ? [r.objectId] : [])));
    },

    async getState(
      registration: string,
      activityId: string,
      stateId: string,
    ): Promise<Cmi5StateRow | undefined> {
      const [row] = await db
        .select()
        .from(cmi5States)
        .where(
          and(
            eq(cmi5States.registration, registration),
            eq(cmi5States.activityId, activityId),
            eq(cmi5States.stateId, stateId),
          ),
        );
      return row;
    },

    async stateIds(registration: string, activityId: string, since?: Date): Promise<string[]> {
      const rows = await db
        .select({ stateId: cmi5States.stateId })
        .from(cmi5States)
        .where(
          and(
            eq(cmi5States.registration, registration),
            eq(cmi5States.activityId, activityId),
            since ? gt(cmi5States.updatedAt, since) : undefined,
          ),
        )
        .orderBy(asc(cmi5States.stateId));
      return rows.map((r) => r.stateId);
    },

    /** The bytes of one state document as the storage bound counts them; 0 if there is none. */
    async stateBytes(key: {
      registration: string;
      activityId: string;
      stateId: string;
    }): Promise<number> {
      const [row] = await db
        .select({ bytes: stateBytes })
        .from(cmi5States)
        .where(
          and(
            eq(cmi5States.registration, key.registration),
            eq(cmi5States.activityId, key.activityId),
            eq(cmi5States.stateId, key.stateId),
          ),
        );
      return row?.bytes ?? 0;
    },

    /**
     * Adds `delta` to the bytes the registration's AUs have stored (never below none) and
     * answers the new total. Called while the registration's attempt is locked.
     */
    async addUsage(registration: string, delta: number): Promise<number> {
      const [row] = await db
        .insert(cmi5RegistrationUsage)
        .values({ registration, bytes: Math.max(0, delta) })
        .onConflictDoUpdate({
          target: cmi5RegistrationUsage.registration,
          set: { bytes: sql`greatest(0, ${cmi5RegistrationUsage.bytes} + ${delta})` },
        })
        .returning({ bytes: cmi5RegistrationUsage.bytes });
      return row!.bytes;
    },

    async putState(
      key: { registration: string; activityId: string; stateId: string },
      doc: Document,
    ): Promise<void> {
      await db
        .insert(cmi5States)
        .values({ ...key, ...doc })
        .onConflictDoUpdate({
          target: [cmi5States.registration, cmi5States.activityId, cmi5States.stateId],
          set: { ...doc, updatedAt: sql`now()` },
        });
    },

    /**
     * Deletes one state document, or every one of the activity but the LMS's launch data, and
     * answers the bytes they took as the storage bound counts them.
     */
    async deleteStates(
      registration: string,
      activityId: string,
      stateId?: string,
    ): Promise<number> {
      const rows = await db
        .delete(cmi5States)
        .where(
          and(
            eq(cmi5States.registration, registration),
            eq(cmi5States.activityId, activityId),
            stateId ? eq(cmi5States.stateId, stateId) : ne(cmi5States.stateId, LAUNCH_DATA),
          ),
        )
        .returning({ bytes: stateBytes });
      return rows.reduce((sum, row) => sum + row.bytes, 0);
    },

    async getProfile(userId: string, profileId: string): Promise<Cmi5AgentProfileRow | undefined> {
      const [row] = await db
        .select()
        .from(cmi5AgentProfiles)
        .where(
          and(eq(cmi5AgentProfiles.userId, userId), eq(cmi5AgentProfiles.profileId, profileId)),
        );
      return row;
    },

    async profileIds(userId: string, since?: Date): Promise<string[]> {
      const rows = await db
        .select({ profileId: cmi5AgentProfiles.profileId })
        .from(cmi5AgentProfiles)
        .where(
          and(
            eq(cmi5AgentProfiles.userId, userId),
            since ? gt(cmi5AgentProfiles.updatedAt, since) : undefined,
          ),
        )
        .orderBy(asc(cmi5AgentProfiles.profileId));
      return rows.map((r) => r.profileId);
    },

    /**
     * The bytes the learner's agent profile documents take as the storage bound counts them,
     * but for the one named `except` (about to be written again).
     */
    async profileBytes(userId: string, except: string): Promise<number> {
      const [row] = await db
        .select({
          bytes: sql<number>`coalesce(sum(${ROW_BYTES} + octet_length(${cmi5AgentProfiles.profileId})
            + octet_length(${cmi5AgentProfiles.content})), 0)::float8`,
        })
        .from(cmi5AgentProfiles)
        .where(and(eq(cmi5AgentProfiles.userId, userId), ne(cmi5AgentProfiles.profileId, except)));
      return row?.bytes ?? 0;
    },

    async putProfile(key: { userId: string; profileId: string }, doc: Document): Promise<void> {
      await db
        .insert(cmi5AgentProfiles)
        .values({ ...key, ...doc })
        .onConflictDoUpdate({
          target: [cmi5AgentProfiles.userId, cmi5AgentProfiles.profileId],
          set: { ...doc, updatedAt: sql`now()` },
        });
    },

    async deleteProfile(userId: string, profileId: string): Promise<void> {
      await db
        .delete(cmi5AgentProfiles)
        .where(
          and(eq(cmi5AgentProfiles.userId, userId), eq(cmi5AgentProfiles.profileId, profileId)),
        );
    },
  };
}
