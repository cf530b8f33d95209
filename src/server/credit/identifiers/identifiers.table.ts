import { sql } from "drizzle-orm";
import { check, jsonb, pgTable, smallint, text, timestamp } from "drizzle-orm/pg-core";
import type { LicenceEntry } from "../../../contract";
import { users } from "../../people/auth/auth.table";

/**
 * A learner's professional identifiers, one row per learner (migration 0032 gathered the
 * licence of the profile and the identifiers given for regulators into it). The profile and
 * the attestation write the same row; a claim copies what its regulators are sent, and a
 * certificate what it prints, so changing them later never rewrites a credit record.
 */
export const learnerIdentifiers = pgTable(
  "learner_identifiers",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Each licence by licence type or board, state and number, in the learner's order. */
    licences: jsonb("licences").$type<LicenceEntry[]>().notNull().default([]),
    npi: text("npi").notNull().default(""),
    nabpEpid: text("nabp_epid").notNull().default(""),
    /** An insurance producer's National Producer Number. */
    npn: text("npn").notNull().default(""),
    birthMonth: smallint("birth_month"),
    birthDay: smallint("birth_day"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    profession: text("profession").notNull().default(""),
    certifyingBoard: text("certifying_board").notNull().default(""),
    boardId: text("board_id").notNull().default(""),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      "learner_identifiers_birth_check",
      sql`(${t.birthMonth} is null) = (${t.birthDay} is null) and ${t.birthMonth} between 1 and 12 and ${t.birthDay} between 1 and 31`,
    ),
  ],
);

export type LearnerIdentifiersRow = typeof learnerIdentifiers.$inferSelect;
