import { describe, expect, it } from "vitest";
import {
  AUDIT_EVENT_GROUPS,
  AUDIT_EVENT_LABELS,
  AUDIT_EVENT_TYPES,
  auditFieldName,
  describeAuditEvent,
} from "./audit";

describe("audit event names and sentences", () => {
  it("declares each type once, named <subject>.<verb>, with a label", () => {
    const all = AUDIT_EVENT_GROUPS.flatMap((g) => Object.keys(g.events));
    expect(new Set(all).size).toBe(all.length);
    expect(AUDIT_EVENT_TYPES).toEqual(all);
    for (const type of AUDIT_EVENT_TYPES) {
      expect(type).toMatch(/^[a-z_]+\.[a-z_]+$/);
      expect(AUDIT_EVENT_LABELS[type]).toMatch(/^[A-Z]/);
      // Every type has a sentence of its own, even with no details.
      expect(describeAuditEvent({ type, details: {} })).not.toBe(type);
    }
  });

  it("names the credit type of each amount a learner claimed", () => {
    expect(
      describeAuditEvent({
        type: "attestation.signed",
        details: { creditsClaimed: 1.25, claims: [{ name: "contact hours", amount: 1.25, of: 2 }] },
      }),
    ).toBe("Signed the attestation, claiming 1.25 contact hours");
    expect(
      describeAuditEvent({
        type: "attestation.signed",
        details: {
          creditsClaimed: null,
          claims: [
            { name: "contact hours", amount: 1, of: 1 },
            { name: "CPE credits", amount: 2, of: 2 },
          ],
        },
      }),
    ).toBe("Signed the attestation, claiming 1 contact hour and 2 CPE credits");
    // Recorded before credit types: the amount alone.
    expect(describeAuditEvent({ type: "attestation.signed", details: { creditsClaimed: 1 } })).toBe(
      "Signed the attestation, claiming 1 credit",
    );
  });

  it("says what changed, with old and new values where they were kept", () => {
    expect(
      describeAuditEvent({
        type: "course.updated",
        details: {
          courseTitle: "B",
          changes: [
            { field: "title", from: "A", to: "B" },
            { field: "description" },
            { field: "duration", from: 1, to: 2 },
          ],
        },
      }),
    ).toBe("Edited the course: title from “A” to “B”; description; duration from 1 to 2");
    expect(
      describeAuditEvent({
        type: "exam.settings_updated",
        details: {
          changes: [
            { field: "timeLimitMinutes", from: null, to: 30 },
            { field: "enabled", from: false, to: true },
          ],
        },
      }),
    ).toBe("Changed the exam settings: time limit from none to 30; exam on from no to yes");
    expect(
      describeAuditEvent({
        type: "course.modules_reordered",
        details: { titles: ["Ethics", "Intro"] },
      }),
    ).toBe("Reordered the modules: 1. Ethics, 2. Intro");
    expect(
      describeAuditEvent({
        type: "review.question_added",
        details: { moduleTitle: "Intro", questionText: "Why?" },
      }),
    ).toBe("Added a review question to “Intro”: “Why?”");
    expect(describeAuditEvent({ type: "exam.questions_imported", details: { count: 1 } })).toBe(
      "Imported 1 exam question from a file",
    );
    expect(
      describeAuditEvent({
        type: "course.published",
        details: { creditLengthReason: "Includes assigned reading." },
      }),
    ).toBe(
      "Published the course with more credit than its content's length supports: “Includes assigned reading.”",
    );
    // Details a reader cannot trust (an older or hand-made row) still read as a sentence.
    expect(describeAuditEvent({ type: "course.updated", details: { changes: "x" } })).toBe(
      "Edited the course",
    );
    expect(describeAuditEvent({ type: "future.thing", details: {} })).toBe("future.thing");
  });

  it("names a field without a label by its words", () => {
    expect(auditFieldName("passMark")).toBe("pass mark");
    expect(auditFieldName("sponsorAddress")).toBe("sponsor address");
  });
});
