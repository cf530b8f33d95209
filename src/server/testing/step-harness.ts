import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import {
  type ActivityBody,
  type CompletionPolicy,
  type CompletionStepKey,
  type Course,
  DEFAULT_ACTIVITY,
  PUBLISH_CONFIRMATIONS,
} from "../../contract";
import { createCoursesRepository } from "../catalogue/courses/courses.repository";
import { type CoursesService, createCoursesService } from "../catalogue/courses/courses.service";
import { createCreditCatalogueService } from "../catalogue/courses/credit-catalogue.service";
import { createPackagesService } from "../catalogue/packages/packages.service";
import {
  type AccreditationService,
  createAccreditationService,
} from "../credit/accreditation/accreditation.service";
import { type ActivityService, createActivityService } from "../credit/activity/activity.service";
import {
  type AttestationsService,
  createAttestationsService,
} from "../credit/attestations/attestations.service";
import { createCertificatesRepository } from "../credit/certificates/certificates.repository";
import {
  type CertificatesService,
  createCertificatesService,
} from "../credit/certificates/certificates.service";
import type { CertificateRow } from "../credit/certificates/certificates.table";
import { type CreditService, createCreditService } from "../credit/credit/credit.service";
import {
  createEvaluationsService,
  type EvaluationsService,
} from "../credit/evaluations/evaluations.service";
import {
  createIdentifiersService,
  type IdentifiersService,
} from "../credit/identifiers/identifiers.service";
import { claimRegulatorIds } from "../credit/reporting/reporting.read-model";
import type { Database, DatabaseHandle } from "../db/client";
import {
  createQuestionsService,
  type QuestionsService,
} from "../learning/assessments/questions.service";
import type { AnyCompletionStep } from "../learning/enrollments/completion-steps";
import {
  createEnrollmentsService,
  type EnrollmentsService,
} from "../learning/enrollments/enrollments.service";
import { createEvents } from "../lib/events";
import { createAuthRepository } from "../people/auth/auth.repository";
import type { UserRow } from "../people/auth/auth.table";
import { type AuditService, createAuditService } from "../platform/audit/audit.service";
import { auditEvents } from "../platform/audit/audit.table";
import { createObjectsService } from "../platform/objects/objects.service";
import { createOrganisationService } from "../platform/organisation/organisation.service";
import { createLocalDiskStore } from "../storage/local-disk";
import { moduleId } from "./courses";
import { openTestDatabase, resetDatabase } from "./test-database";

/** The learner-facing clock of the enrollments (course expiry, validity windows). */
interface StepClock {
  now(): Date;
  /** Moves the clock to `at`; it follows real time again after each test. */
  set(at: Date): void;
}

/**
 * The enrollments service wired with the given steps of completion and nothing else, over
 * the real services app.ts builds it from, on one migrated database per test file.
 */
interface StepHarness {
  database: DatabaseHandle;
  db: Database;
  clock: StepClock;
  /** The users dependency app.ts takes from the auth service, read the same way. */
  users: {
    findUser(id: string): Promise<UserRow | undefined>;
    findUsers(ids: string[]): Promise<UserRow[]>;
  };
  audit: AuditService;
  courses: CoursesService;
  questions: QuestionsService;
  certificates: CertificatesService;
  enrollments: EnrollmentsService;
  /** The activity page and its acknowledgement, on the clock. */
  activity: ActivityService;
  /** The evaluation's form and submission, on the clock. */
  evaluations: EvaluationsService;
  /** The attestation, on the clock. */
  attestations: AttestationsService;
  /** Credit settings and signatures. */
  credit: CreditService;
  /** Learners' identifiers, their licences among them. */
  identifiers: IdentifiersService;
  /** Sets the course's activity (the defaults of a plain course, overridden) as an administrator. */
  saveActivity(courseId: string, activity: Partial<ActivityBody>): Promise<unknown>;
  /** A new learner, stored through the auth repository. */
  learner(): Promise<UserRow>;
  /** An unpublished course of `modules` one-minute modules, stored through the courses repository. */
  draftCourse(options?: CourseOptions): Promise<Course>;
  /** Publishes through the courses service (its publish checks included). */
  publish(courseId: string): Promise<Course>;
  /** A published course. */
  course(options?: CourseOptions): Promise<Course>;
  /** A learner enrolled through the enrollments service in `course`. */
  enrolledLearner(course: Course): Promise<UserRow>;
  /** Marks every module complete, in order, as the learner. */
  completeModules(userId: string, course: Course): Promise<void>;
  /** What the learner holds in the course: the stored row and the issued certificates. */
  outcome(
    userId: string,
    courseId: string,
  ): Promise<{
    isCompleted: boolean;
    certificates: CertificateRow[];
  }>;
  /**
   * Expects the course not completed and no certificate issued, with `step` required, not
   * done and next in the learner's standing; returns the standing.
   */
  expectHeldAt(
    userId: string,
    courseId: string,
    step: CompletionStepKey,
  ): Promise<Awaited<ReturnType<EnrollmentsService["completion"]>>>;
  /** Expects the course completed with exactly one certificate, nothing next; returns it. */
  expectCompleted(userId: string, courseId: string): Promise<CertificateRow>;
  /** The audit trail's event types in the order they were written. */
  auditTypes(): Promise<string[]>;
}

interface CourseOptions {
  modules?: number;
  completionPolicy?: CompletionPolicy;
  minWatchPercent?: number;
  /** The credit the course offers: one type of this many "credit hours". */
  creditHours?: number;
}

const unique = () => randomBytes(4).toString("hex");

/**
 * Opens the file's database before its tests, empties it before each test and closes it
 * after them. The services keep no cache (no change feed), so rows a test writes are read
 * back at once.
 */
/** The administrator the harness acts as: the audit trail records their edits. */
export const HARNESS_ADMIN = { id: "admin", role: "admin" } as const;

export function useStepHarness(steps: readonly AnyCompletionStep[]): StepHarness {
  const h = {} as StepHarness;
  let dataDir = "";
  let accreditation: AccreditationService;
  let at: Date | null = null;
  let moduleNumber = 0;
  h.clock = {
    now: () => at ?? new Date(),
    set: (date) => {
      at = date;
    },
  };

  beforeAll(async () => {
    h.database = await openTestDatabase();
    const { db } = h.database;
    h.db = db;
    dataDir = mkdtempSync(join(tmpdir(), "credo-steps-"));
    const authRepo = createAuthRepository(db);
    h.users = {
      findUser: (id) => authRepo.findUserById(id),
      findUsers: (ids) => authRepo.findUsersByIds([...new Set(ids)]),
    };
    h.audit = createAuditService({ db });
    const events = createEvents();
    // In the contexts' order, as in app.ts.
    const store = createLocalDiskStore(join(dataDir, "objects"));
    const objects = createObjectsService({ db, store });
    h.courses = createCoursesService({
      db,
      objects,
      events,
      audit: h.audit,
      creditCatalogue: createCreditCatalogueService({ db, events, audit: h.audit }),
      packages: createPackagesService({ db, store, objects }),
    });
    const organisation = createOrganisationService({
      db,
      objects: createObjectsService({
        db,
        store: createLocalDiskStore(join(dataDir, "objects")),
      }),
      productName: "Credo",
    });
    h.enrollments = createEnrollmentsService({
      db,
      courses: h.courses,
      users: h.users,
      audit: h.audit,
      steps,
      now: h.clock.now,
      events,
    });
    h.questions = createQuestionsService({
      db,
      courses: h.courses,
      audit: h.audit,
      events,
    });
    h.certificates = createCertificatesService({
      db,
      audit: h.audit,
      organisation,
      publicUrl: "http://localhost:5000",
      enrollments: h.enrollments,
      users: h.users,
      events,
    });
    h.activity = createActivityService({
      db,
      courses: h.courses,
      users: h.users,
      enrollments: h.enrollments,
      now: h.clock.now,
      audit: h.audit,
      events,
    });
    const creditStep = { activity: h.activity, now: h.clock.now };
    h.evaluations = createEvaluationsService({ db, ...creditStep });
    h.identifiers = createIdentifiersService({ db, enrollments: h.enrollments });
    h.attestations = createAttestationsService({
      ...creditStep,
      events,
      organisation,
      identifiers: h.identifiers,
      regulators: { claimRegulatorIds },
    });
    h.credit = createCreditService({ db, activity: h.activity, events });
    accreditation = createAccreditationService({
      db,
      activity: h.activity,
      evaluations: h.evaluations,
      attestations: h.attestations,
    });
  });
  beforeEach(async () => {
    at = null;
    await resetDatabase(h.database);
  });
  afterAll(async () => {
    await h.database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  h.saveActivity = (courseId, activity) =>
    accreditation.save(courseId, { ...DEFAULT_ACTIVITY, ...activity }, HARNESS_ADMIN);

  h.learner = async () => {
    const row = await createAuthRepository(h.db).insertUser({
      name: "Test Learner",
      email: `learner-${unique()}@example.com`,
      role: "learner",
    });
    if (!row) throw new Error("learner: email taken");
    return row;
  };

  h.draftCourse = async (options = {}) => {
    const repo = createCoursesRepository(h.db);
    const row = await repo.insert({
      title: "Safe Prescribing",
      description: "Dosing, interactions and records.",
      category: "Development",
      duration: 2,
      completionPolicy: options.completionPolicy ?? "manual",
      minWatchPercent: options.minWatchPercent ?? 90,
    });
    if (options.creditHours) {
      await h.courses.saveCredit(
        row.id,
        {
          bodies: [],
          types: [
            {
              name: "credit hours",
              amount: options.creditHours,
              accreditingBody: "",
              accreditationStatement: "",
              designationStatement: "",
              claimStep: null,
              licenceRequired: false,
            },
          ],
        },
        HARNESS_ADMIN,
      );
    }
    for (let position = 1; position <= (options.modules ?? 1); position++) {
      await repo.insertModule({
        courseId: row.id,
        id: moduleId(++moduleNumber),
        position,
        title: `Module ${position}`,
        duration: 1,
        videoUrl: `/objects/uploads/video-${unique()}-${unique()}`,
      });
    }
    return (await h.courses.findMany([row.id])).get(row.id)!;
  };

  // The harness's courses stand for any course: a credit course with Manual completion, or
  // with more credit than its one-minute modules support, is published as its administrator
  // would confirm it.
  h.publish = (courseId) =>
    h.courses.publish(courseId, HARNESS_ADMIN, {
      confirm: PUBLISH_CONFIRMATIONS.manualCompletion,
      creditLengthReason: "The course stands for any course",
    });
  h.course = async (options) => h.publish((await h.draftCourse(options)).id);

  h.enrolledLearner = async (course) => {
    const learner = await h.learner();
    await h.enrollments.enroll({ userId: learner.id, courseId: course.id });
    return learner;
  };

  h.completeModules = async (userId, course) => {
    for (const module of course.modules) {
      await h.enrollments.completeModule({ userId, courseId: course.id, moduleId: module.id });
    }
  };

  h.outcome = async (userId, courseId) => {
    const row = await h.enrollments.findRow(userId, courseId);
    const certificates = await createCertificatesRepository(h.db).listByUser(userId);
    return {
      isCompleted: row?.isCompleted ?? false,
      certificates: certificates.filter((c) => c.courseId === courseId),
    };
  };

  h.expectHeldAt = async (userId, courseId, step) => {
    expect(await h.outcome(userId, courseId)).toEqual({ isCompleted: false, certificates: [] });
    const standing = await h.enrollments.completion(userId, courseId);
    expect(standing).toMatchObject({ isCompleted: false, next: step });
    expect(standing.steps.find((s) => s.key === step)).toMatchObject({
      required: true,
      done: false,
      doneAt: null,
    });
    return standing;
  };

  h.expectCompleted = async (userId, courseId) => {
    const { isCompleted, certificates } = await h.outcome(userId, courseId);
    expect(isCompleted).toBe(true);
    expect(certificates).toHaveLength(1);
    const standing = await h.enrollments.completion(userId, courseId);
    expect(standing).toMatchObject({ isCompleted: true, next: null });
    expect(standing.steps.filter((s) => s.required && !s.done)).toEqual([]);
    return certificates[0]!;
  };

  h.auditTypes = async () =>
    (
      await h.db.select({ type: auditEvents.type }).from(auditEvents).orderBy(asc(auditEvents.id))
    ).map((e) => e.type);

  return h;
}
