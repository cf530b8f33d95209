import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../db/client";
import { type MigrationScratch, openMigrationScratch } from "../../testing/migration-scratch";
import { loadActivity } from "../activity/activity.read-model";
import { loadAttestationSettings } from "../attestations/attestations.read-model";
import { creditSettingsOf, loadCreditSettings } from "../credit/credit.read-model";
import { loadEvaluationSettings } from "../evaluations/evaluations.read-model";

/**
 * Migration 0028 on courses whose activity row held every credit feature's settings: the
 * evaluation's, the attestation's and the credit settings move to their owners' tables with
 * nothing lost, and the activity keeps its own. PGlite, or a throwaway database on
 * TEST_DATABASE_URL.
 */
describe("migration 0028 (each credit feature keeps its own settings)", () => {
  let scratch: MigrationScratch;
  let db: Database;

  beforeAll(async () => {
    scratch = await openMigrationScratch(28);
    db = scratch.db;
  }, 60_000);

  afterAll(async () => {
    await scratch?.close();
  });

  it("moves the evaluation, attestation and credit settings out of the activity row", async () => {
    await scratch.migrateBefore();
    await db.execute(sql`
      insert into courses (id, title, description, category, duration) values
        ('accredited', 'Wound care', 'd', 'Design', 1),
        ('plain', 'Ethics', 'd', 'Development', 1)`);
    await db.execute(
      sql`insert into signatures (id, content_type, bytes) values ('sig', 'image/png', '\\x89')`,
    );
    await db.execute(sql`
      insert into course_activity (course_id, objectives, acknowledgement_required, retention_years,
          evaluation_required, evaluation_items, attestation_required, attestation_text,
          sponsor_name, delivery_method, fields_of_study, official_name, signature_id) values
        ('accredited', '["Dress a wound"]', true, 7, true,
          '[{"id":"q1","kind":"rating","text":"Useful?","required":true}]', true, 'I attest.',
          'Credo Nursing', 'Internet enduring', '[{"field":"Nursing","credits":1.5}]',
          'Dr. Ada', 'sig')`);
    await scratch.migrateAll();

    expect(await loadActivity(db, "accredited")).toMatchObject({
      objectives: ["Dress a wound"],
      acknowledgementRequired: true,
      retentionYears: 7,
    });
    expect(await loadEvaluationSettings(db, "accredited")).toMatchObject({
      evaluationRequired: true,
      evaluationItems: [{ id: "q1", kind: "rating", text: "Useful?", required: true }],
    });
    expect(await loadAttestationSettings(db, "accredited")).toMatchObject({
      attestationRequired: true,
      attestationText: "I attest.",
    });
    expect(creditSettingsOf(await loadCreditSettings(db, "accredited"))).toEqual({
      sponsorName: "Credo Nursing",
      sponsorAddress: "",
      deliveryMethod: "Internet enduring",
      fieldsOfStudy: [{ field: "Nursing", credits: 1.5 }],
      officialName: "Dr. Ada",
      officialTitle: "",
      signatureId: "sig",
    });
    // A course without an activity row has none of the others either: the defaults.
    expect(await loadEvaluationSettings(db, "plain")).toBeUndefined();
    expect(await loadAttestationSettings(db, "plain")).toBeUndefined();
    expect(await loadCreditSettings(db, "plain")).toBeUndefined();
  });
});
