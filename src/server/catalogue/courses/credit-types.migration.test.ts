import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAttestationsRepository } from "../../credit/attestations/attestations.repository";
import type { Database } from "../../db/client";
import { type MigrationScratch, openMigrationScratch } from "../../testing/migration-scratch";
import { creditTypesOfCourse } from "./credit-offers.read-model";

/**
 * Migration 0019 on a database whose courses each offer the one credit type of the schema
 * before it: every course's type, body, provider number, statement, claim step and licence
 * rule move into one credit type, attestations keep their claim, and issued certificates
 * list the credit they printed. PGlite, or a throwaway database on TEST_DATABASE_URL.
 */

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe("migration 0019 (credit types)", () => {
  let scratch: MigrationScratch;
  let db: Database;

  beforeAll(async () => {
    scratch = await openMigrationScratch(19);
    db = scratch.db;
  }, 60_000);

  afterAll(async () => {
    await scratch?.close();
  });

  it("moves each course's single credit type into one row, with nothing lost", async () => {
    await scratch.migrateBefore();
    // Four courses as the schema before 0019 held them.
    await db.execute(sql`
      insert into users (id, name, email, role) values
        ('u1', 'Ada Nurse', 'ada@example.com', 'learner'),
        ('u2', 'Ben Accountant', 'ben@example.com', 'learner')`);
    await db.execute(sql`
      insert into courses (id, title, description, category, duration, credit_hours, credit_type, accrediting_body, provider_number) values
        ('nurse', 'Wound care', 'd', 'Design', 1, 1.5, 'Contact hours', 'ANCC', 'P-0421'),
        ('cpa', 'Ethics', 'd', 'Development', 1, 2, 'CPE', 'NASBA', null),
        ('bare', 'Plain credit', 'd', 'Mobile', 1, 3, null, null, null),
        ('none', 'No credit', 'd', 'Database', 1, null, null, null, null)`);
    await db.execute(sql`
      insert into course_activity (course_id, accreditation_statement, partial_credit_step, registry_number, licence_required, attestation_required, attestation_text) values
        ('nurse', 'Credo is accredited by ANCC.', 0.5, '', true, true, 'I attest.'),
        ('cpa', 'Credo is registered with NASBA.', null, 'NASBA Sponsor ID 112233', false, true, 'I attest.')`);
    await db.execute(sql`
      insert into enrollments (id, user_id, course_id, progress, is_completed, completed_at) values
        ('e1', 'u1', 'nurse', 100, true, now()),
        ('e2', 'u2', 'cpa', 100, true, now())`);
    await db.execute(sql`
      insert into attestations (id, enrollment_id, user_id, course_id, learner_name, learner_email, course_title, retain_until, statement, credits_claimed, designated_credits, attested_at) values
        ('a1', 'e1', 'u1', 'nurse', 'Ada Nurse', 'ada@example.com', 'Wound care', now() + interval '6 years', 'I attest.', 1, 1.5, now()),
        ('a2', 'e2', 'u2', 'cpa', 'Ben Accountant', 'ben@example.com', 'Ethics', now() + interval '6 years', 'I attest.', 2, 2, now())`);
    await db.execute(sql`
      insert into certificates (id, code, enrollment_id, user_id, course_id, learner_name, course_title, course_category, duration_hours, credit_hours, credit_type, accrediting_body, provider_number, issuer_name, enrolled_at, completed_at, credit) values
        ('c1', 'CODE1', 'e1', 'u1', 'nurse', 'Ada Nurse', 'Wound care', 'Design', 1, 1.5, 'Contact hours', 'ANCC', 'P-0421', 'Credo', now(), now(),
          ${JSON.stringify({ creditsClaimed: 1, accreditationStatement: "Credo is accredited by ANCC.", registryNumber: "" })}::jsonb),
        ('c2', 'CODE2', 'e2', 'u2', 'cpa', 'Ben Accountant', 'Ethics', 'Development', 1, 2, 'CPE', 'NASBA', null, 'Credo', now(), now(), null)`);

    await scratch.migrateAll();

    expect(await creditTypesOfCourse(db, "nurse")).toEqual([
      {
        id: expect.any(String),
        // Migration 0030 puts each type in the organisation's catalogue.
        catalogueTypeId: expect.any(String),
        name: "Contact hours",
        singularName: "Contact hour",
        profession: "Nursing",
        amount: 1.5,
        accreditingBody: "ANCC",
        providerNumber: "P-0421",
        minutesPerHour: 60,
        accreditationStatement: "Credo is accredited by ANCC.",
        designationStatement: "",
        claimStep: 0.5,
        licenceRequired: true,
        fieldsOfStudyRequired: false,
        regulators: [],
      },
    ]);
    // A type printed as "CPE credit hours" keeps that unit; the registry number, which named
    // the same sponsor, becomes the body's provider number.
    expect(await creditTypesOfCourse(db, "cpa")).toMatchObject([
      {
        name: "CPE credit hours",
        singularName: "CPE credit hour",
        profession: "Accounting",
        minutesPerHour: 50,
        amount: 2,
        accreditingBody: "NASBA",
        providerNumber: "NASBA Sponsor ID 112233",
        accreditationStatement: "Credo is registered with NASBA.",
        claimStep: null,
        licenceRequired: false,
      },
    ]);
    expect(await creditTypesOfCourse(db, "bare")).toMatchObject([
      {
        name: "credit hours",
        profession: "",
        amount: 3,
        accreditingBody: null,
        providerNumber: null,
      },
    ]);
    expect(await creditTypesOfCourse(db, "none")).toEqual([]);

    // The attestations keep their claim, linked to the type it was claimed of.
    const [nurseType] = await creditTypesOfCourse(db, "nurse");
    const attested = await createAttestationsRepository(db).attestationOf("e1");
    expect(attested!.credits).toEqual([
      {
        creditTypeId: nurseType!.id,
        catalogueTypeId: nurseType!.catalogueTypeId,
        name: "Contact hours",
        singularName: null,
        amount: 1,
        maxAmount: 1.5,
        accreditingBody: "ANCC",
        providerNumber: "P-0421",
        regulatorIds: null,
      },
    ]);

    // Certificates list the credit they printed, the claim where one was recorded.
    const certificates = rows<{ id: string; credits: unknown }>(
      await db.execute(sql`select id, credits from certificates order by id`),
    );
    expect(certificates).toEqual([
      {
        id: "c1",
        credits: [
          {
            creditTypeId: null,
            name: "Contact hours",
            amount: 1,
            accreditingBody: "ANCC",
            providerNumber: "P-0421",
            accreditationStatement: "Credo is accredited by ANCC.",
            designationStatement: "",
          },
        ],
      },
      {
        id: "c2",
        credits: [
          {
            creditTypeId: null,
            name: "CPE credit hours",
            amount: 2,
            accreditingBody: "NASBA",
            providerNumber: null,
            accreditationStatement: "",
            designationStatement: "",
          },
        ],
      },
    ]);

    // Still immutable, the new column included; claims are credit records too.
    await expect(
      db.execute(sql`update certificates set credits = '[]'::jsonb where id = 'c1'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update attestation_credits set amount = 1.5 where attestation_id = 'a1'`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from attestation_credits where attestation_id = 'a1'`),
    ).rejects.toThrow();
    // Deleting the type only unlinks the claim.
    await db.execute(sql`delete from course_credit_types where course_id = 'nurse'`);
    const [unlinked] = rows<{ credit_type_id: string | null; amount: string }>(
      await db.execute(
        sql`select credit_type_id, amount from attestation_credits where attestation_id = 'a1'`,
      ),
    );
    expect(unlinked!.credit_type_id).toBeNull();
    expect(Number(unlinked!.amount)).toBe(1);
  });
});
