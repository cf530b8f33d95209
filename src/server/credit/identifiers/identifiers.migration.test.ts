import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMPTY_IDENTIFIERS, EMPTY_REGULATOR_IDS } from "../../../contract";
import type { Database } from "../../db/client";
import { type MigrationScratch, openMigrationScratch } from "../../testing/migration-scratch";
import { identifiersOf } from "./identifiers.read-model";

/**
 * Migration 0032 on a database of the schema before it, where a learner's licence sat in
 * the profile's licence card and their identifiers for regulators in another, copied into
 * each reported claim: each learner gets one record holding both, gaps filled from their
 * latest claim, and the claims keep what they were made with. PGlite, or a throwaway
 * database on TEST_DATABASE_URL.
 */

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
const json = (value: unknown) => JSON.stringify(value);

describe("migration 0032 (one set of identifiers)", () => {
  let scratch: MigrationScratch;
  let db: Database;

  beforeAll(async () => {
    scratch = await openMigrationScratch(32);
    db = scratch.db;
  }, 60_000);

  afterAll(async () => {
    await scratch?.close();
  });

  it("gathers each learner's licence and regulator identifiers into one record, the claims untouched", async () => {
    await scratch.migrateBefore();
    await db.execute(sql`
      insert into users (id, name, email, role) values
        ('md', 'Ada Byron', 'ada@example.com', 'learner'),
        ('cpa', 'Ben Ledger', 'ben@example.com', 'learner'),
        ('rn', 'Cleo Nurse', 'cleo@example.com', 'learner'),
        ('moc', 'Grace Hopper', 'grace@example.com', 'learner'),
        ('npn', 'Ines Agent', 'ines@example.com', 'learner'),
        ('wv', 'Wes Nurse', 'wes@example.com', 'learner'),
        ('none', 'No Ids', 'none@example.com', 'learner')`);
    await db.execute(sql`
      insert into learner_licences (user_id, licence_type, licence_number, licence_state, npn) values
        ('md', 'MD', 'A-12345', 'California', ''),
        ('cpa', 'CPA', 'CPA-048213', 'California Board of Accountancy', ''),
        ('rn', 'RN', 'RN-1001', 'fl', ''),
        ('npn', 'Insurance producer', '', '', '8812345'),
        ('wv', 'RN', 'WV-77', 'West Virginia Board of Nursing', '')`);
    await db.execute(sql`
      insert into learner_regulator_ids (user_id, first_name, last_name, birth_month, birth_day, npi, licence_state, licence_number, profession, certifying_board, board_id, nabp_epid) values
        ('md', 'Ada', 'Byron', 2, 29, '1234567893', 'CA', 'A-12345', '', '', '', ''),
        ('rn', 'Cleo', 'Nurse', null, null, '', 'OR', 'MD9', 'RN', '', '', ''),
        ('moc', 'Grace', '', null, null, '', '', '', '', '', '', '')`);
    // Grace's claims: an older one, and the latest, made before she cleared her last name.
    await db.execute(sql`
      insert into courses (id, title, description, category, duration) values
        ('c1', 'Cardiology', 'd', 'Design', 1), ('c2', 'Oncology', 'd', 'Design', 1)`);
    await db.execute(sql`
      insert into enrollments (id, user_id, course_id, progress, is_completed, completed_at) values
        ('e1', 'moc', 'c1', 100, true, now()), ('e2', 'moc', 'c2', 100, true, now())`);
    await db.execute(sql`
      insert into attestations (id, enrollment_id, user_id, course_id, learner_name, learner_email, course_title, retain_until, statement, attested_at) values
        ('a1', 'e1', 'moc', 'c1', 'Grace Hopper', 'grace@example.com', 'Cardiology', now() + interval '6 years', 'I attest.', now() - interval '9 days'),
        ('a2', 'e2', 'moc', 'c2', 'Grace Hopper', 'grace@example.com', 'Oncology', now() + interval '6 years', 'I attest.', now() - interval '2 days')`);
    const older = {
      regulators: ["pars"],
      ids: { ...EMPTY_REGULATOR_IDS, firstName: "Grace", lastName: "Murray" },
    };
    const latest = {
      regulators: ["pars"],
      ids: {
        ...EMPTY_REGULATOR_IDS,
        firstName: "Grace",
        lastName: "Hopper",
        birthMonth: 12,
        birthDay: 9,
        certifyingBoard: "ABIM",
        boardId: "778899",
      },
      consent: "I agree that Credo reports my completion of this activity to ACCME PARS.",
    };
    await db.execute(sql`
      insert into attestation_credits (attestation_id, position, name, amount, max_amount, regulator_ids) values
        ('a1', 0, 'AMA PRA Category 1 Credit', 1, 1, ${json(older)}::jsonb),
        ('a2', 0, 'AMA PRA Category 1 Credit', 1, 1, ${json(latest)}::jsonb)`);

    await scratch.migrateAll();

    // The same licence in both cards is one licence, named by its type and coded state.
    expect(await identifiersOf(db, "md")).toEqual({
      ...EMPTY_IDENTIFIERS,
      licences: [{ licenceType: "MD", licenceState: "CA", licenceNumber: "A-12345" }],
      firstName: "Ada",
      lastName: "Byron",
      birthMonth: 2,
      birthDay: 29,
      npi: "1234567893",
    });
    // A board written as the issuing state keeps its name with the licence type.
    expect((await identifiersOf(db, "cpa")).licences).toEqual([
      {
        licenceType: "CPA, California Board of Accountancy",
        licenceState: "CA",
        licenceNumber: "CPA-048213",
      },
    ]);
    expect((await identifiersOf(db, "wv")).licences).toEqual([
      {
        licenceType: "RN, West Virginia Board of Nursing",
        licenceState: "WV",
        licenceNumber: "WV-77",
      },
    ]);
    // Two different licences: the profile's first (the one certificates print).
    expect(await identifiersOf(db, "rn")).toMatchObject({
      licences: [
        { licenceType: "RN", licenceState: "FL", licenceNumber: "RN-1001" },
        { licenceType: "", licenceState: "OR", licenceNumber: "MD9" },
      ],
      firstName: "Cleo",
      profession: "RN",
    });
    // What the profile leaves empty comes from the latest claim.
    expect(await identifiersOf(db, "moc")).toEqual({
      ...EMPTY_IDENTIFIERS,
      firstName: "Grace",
      lastName: "Hopper",
      birthMonth: 12,
      birthDay: 9,
      certifyingBoard: "ABIM",
      boardId: "778899",
    });
    expect(await identifiersOf(db, "npn")).toEqual({
      ...EMPTY_IDENTIFIERS,
      licences: [{ licenceType: "Insurance producer", licenceState: "", licenceNumber: "" }],
      npn: "8812345",
    });
    const stored = rows<{ user_id: string }>(
      await db.execute(sql`select user_id from learner_identifiers order by user_id`),
    );
    expect(stored.map((r) => r.user_id)).toEqual(["cpa", "md", "moc", "npn", "rn", "wv"]);

    // The claims keep the identifiers they were made with.
    const claims = rows<{ attestation_id: string; regulator_ids: unknown }>(
      await db.execute(
        sql`select attestation_id, regulator_ids from attestation_credits order by attestation_id`,
      ),
    );
    expect(claims).toEqual([
      { attestation_id: "a1", regulator_ids: older },
      { attestation_id: "a2", regulator_ids: latest },
    ]);
    const tables = rows<{ name: string }>(
      await db.execute(
        sql`select table_name as name from information_schema.tables where table_name in ('learner_licences', 'learner_regulator_ids')`,
      ),
    );
    expect(tables).toEqual([]);
  });
});
