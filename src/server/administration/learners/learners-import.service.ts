import {
  type Course,
  LEARNER_IMPORT_ERRORS,
  LEARNER_IMPORT_MAX_COURSES,
  type LearnerImportPreview,
  type LearnerImportPreviewRow,
  type LearnerImportResult,
  type LearnerImportResultRow,
  type LearnerImportRow,
  learnerImportFieldsSchema,
} from "../../../contract";
import type { Database } from "../../db/client";
import type { EnrollmentsService } from "../../learning";
import type { Mailer } from "../../mail/mailer";
import type { MailIssuer } from "../../mail/templates";
import type { AuthService } from "../../people";
import { invitationFor } from "../../people";
import type { Actor } from "../../platform";
import { AppError } from "../../plugins/errors";
import { courseNamesIn, parseLearnerCsv } from "./learner-csv";

/**
 * Invitations of a batch sent side by side: an SMTP relay answers each in tens of
 * milliseconds, so one at a time would make a batch of 250 wait seconds for its mail.
 */
const MAIL_CONCURRENCY = 8;

export interface LearnersImportServiceDeps {
  db: Database;
  /** The courses feature: every course, for naming them by title or id. */
  courses: { listAll(): Promise<Course[]> };
  enrollments: Pick<EnrollmentsService, "assertEnrollable" | "enrollNewLearners">;
  /** The auth feature: learners' accounts and invitations, which it owns. */
  accounts: AuthService["learnerAccounts"];
  mailer: Mailer;
  /** The organisation feature: who mails come from (the product name until it is set). */
  issuer: { mailIssuer(): Promise<MailIssuer> };
  /** Links in emails are built from PUBLIC_URL, never from a request's Host header. */
  publicUrl: string;
  log: { error(obj: object, msg: string): void };
}

interface CheckedFields {
  name: string;
  email: string;
  phone: string | null;
  errors: string[];
}

/** A row's name, email and phone under the single registration's rules (the contract's). */
function checkFields(raw: { name: string; email: string; phone?: string | null }): CheckedFields {
  const parsed = learnerImportFieldsSchema.safeParse({
    name: raw.name,
    email: raw.email,
    phone: raw.phone ?? "",
  });
  if (parsed.success) {
    return {
      name: parsed.data.name,
      email: parsed.data.email,
      phone: parsed.data.phone || null,
      errors: [],
    };
  }
  return {
    name: raw.name.trim(),
    email: raw.email.trim(),
    phone: raw.phone?.trim() || null,
    // The contract's messages name the column's field ("Phone must be at most 40 characters").
    errors: parsed.error.issues.map((issue) => issue.message),
  };
}

/** Marks every later row with an email seen on an earlier row. */
function markDuplicates(rows: { line: number; email: string; errors: string[] }[]) {
  const firstLine = new Map<string, number>();
  for (const row of rows) {
    const key = row.email.toLowerCase();
    if (!key) continue;
    const first = firstLine.get(key);
    if (first === undefined) firstLine.set(key, row.line);
    else row.errors.push(LEARNER_IMPORT_ERRORS.duplicateInFile(first));
  }
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of the answers. */
async function mapLimited<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>) {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Registers learners from a CSV file: a preview that writes nothing, then batches that
 * each register, enroll and invite their valid rows in one transaction.
 */
export function createLearnersImportService(deps: LearnersImportServiceDeps) {
  const { db } = deps;

  /** Why each course takes no enrollment now (the single enrollment's rules), or null. */
  async function enrollability(courseIds: Iterable<string>) {
    const reasons = new Map<string, string | null>();
    for (const id of courseIds) {
      if (reasons.has(id)) continue;
      try {
        await deps.enrollments.assertEnrollable(id);
        reasons.set(id, null);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        reasons.set(id, error.message);
      }
    }
    return reasons;
  }

  /**
   * Mails each new learner the invitation a single registration sends, naming the courses
   * they were enrolled in with it (their one mail: no enrollment mail is queued for them);
   * false where it failed.
   */
  function sendInvitations(
    invites: { email: string; name: string; token: string; courseTitles: string[] }[],
  ) {
    return mapLimited(invites, MAIL_CONCURRENCY, async ({ email, name, token, courseTitles }) => {
      try {
        await deps.mailer.send(
          invitationFor({
            issuer: await deps.issuer.mailIssuer(),
            publicUrl: deps.publicUrl,
            email,
            name,
            token,
            courseTitles,
          }),
        );
        return true;
      } catch (err) {
        // The learner is registered; the administrator sees who was not invited.
        deps.log.error({ err, to: email }, "could not send email");
        return false;
      }
    });
  }

  return {
    /**
     * Reads a learners file and checks every row as the import would, without writing:
     * the fields, emails repeated in the file (the later rows), emails already registered,
     * and each course named (title or id; a title several courses share is refused).
     */
    async preview(input: { csv: string }) {
      const records = parseLearnerCsv(input.csv);
      const courses = await deps.courses.listAll();
      const byId = new Map(courses.map((c) => [c.id, c]));
      const byTitle = new Map<string, Course[]>();
      for (const course of courses) {
        const key = course.title.trim().toLowerCase();
        byTitle.set(key, [...(byTitle.get(key) ?? []), course]);
      }

      const rows: LearnerImportPreviewRow[] = records.map((record) => {
        const fields = checkFields(record);
        const found = new Map<string, Course>();
        const names = courseNamesIn(record.courses);
        if (names.length > LEARNER_IMPORT_MAX_COURSES) {
          fields.errors.push(LEARNER_IMPORT_ERRORS.tooManyCourses);
        }
        for (const name of names.slice(0, LEARNER_IMPORT_MAX_COURSES)) {
          const exact = byId.get(name);
          const titled = byTitle.get(name.toLowerCase()) ?? [];
          if (exact) found.set(exact.id, exact);
          else if (titled.length === 1 && titled[0]) found.set(titled[0].id, titled[0]);
          else if (titled.length > 1)
            fields.errors.push(LEARNER_IMPORT_ERRORS.ambiguousCourse(name));
          else fields.errors.push(LEARNER_IMPORT_ERRORS.unknownCourse(name));
        }
        return {
          line: record.line,
          name: fields.name,
          email: fields.email,
          phone: fields.phone ?? "",
          coursesCell: record.courses,
          courses: [...found.values()].map((c) => ({ id: c.id, title: c.title })),
          errors: fields.errors,
        };
      });

      markDuplicates(rows);
      const reasons = await enrollability(rows.flatMap((row) => row.courses.map((c) => c.id)));
      const registered = await deps.accounts.registeredEmails(rows.map((row) => row.email));
      for (const row of rows) {
        if (registered.has(row.email)) row.errors.push(LEARNER_IMPORT_ERRORS.alreadyRegistered);
        for (const course of row.courses) {
          const reason = reasons.get(course.id);
          if (reason)
            row.errors.push(LEARNER_IMPORT_ERRORS.courseNotEnrollable(course.title, reason));
        }
      }
      const valid = rows.filter((row) => row.errors.length === 0).length;
      return { rows, valid, invalid: rows.length - valid } satisfies LearnerImportPreview;
    },

    /**
     * Registers one batch. Every row is checked again (the preview is the client's copy);
     * the valid rows' learners, invitation tokens and enrollments are written with one
     * insert each, in one transaction, and the invitations are mailed once it committed.
     * An email that already has an account (an earlier batch, a retry, another
     * administrator at the same moment) is reported as already registered and left as it is.
     */
    async commit(input: { rows: LearnerImportRow[]; actor: Actor }): Promise<LearnerImportResult> {
      const checked = input.rows.map((row) => ({
        ...checkFields(row),
        line: row.line,
        courseIds: [...new Set(row.courseIds)],
      }));
      markDuplicates(checked);
      const reasons = await enrollability(checked.flatMap((row) => row.courseIds));
      for (const row of checked) {
        for (const id of row.courseIds) {
          const reason = reasons.get(id);
          if (reason) row.errors.push(LEARNER_IMPORT_ERRORS.courseNotEnrollable(id, reason));
        }
      }
      const ready = checked.filter((row) => row.errors.length === 0);

      const { created, invites, enrolledIn } = await db.transaction(async (tx) => {
        const invites = await deps.accounts.registerIn(tx, ready);
        const created = invites.map(({ token: _, ...user }) => user);
        const courseIdsByEmail = new Map(ready.map((row) => [row.email, row.courseIds]));
        const enrollments = await deps.enrollments.enrollNewLearners(
          tx,
          created.flatMap((user) =>
            (courseIdsByEmail.get(user.email) ?? []).map((courseId) => ({
              userId: user.id,
              courseId,
            })),
          ),
          input.actor,
        );
        const enrolledIn = new Map<string, string[]>();
        for (const e of enrollments) {
          enrolledIn.set(e.userId, [...(enrolledIn.get(e.userId) ?? []), e.courseId]);
        }
        return { created, invites, enrolledIn };
      });

      const titles = new Map((await deps.courses.listAll()).map((c) => [c.id, c.title]));
      const sent = await sendInvitations(
        invites.map((invite) => ({
          ...invite,
          courseTitles: (enrolledIn.get(invite.id) ?? []).flatMap((id) => titles.get(id) ?? []),
        })),
      );
      const invitedEmails = new Set(invites.filter((_, i) => sent[i]).map((i) => i.email));
      const createdByEmail = new Map(created.map((user) => [user.email, user]));
      const rows: LearnerImportResultRow[] = checked.map((row) => {
        const user = row.errors.length ? undefined : createdByEmail.get(row.email);
        const outcome = row.errors.length ? "rejected" : user ? "registered" : "alreadyRegistered";
        return {
          line: row.line,
          email: row.email,
          outcome,
          userId: user?.id ?? null,
          enrolled: user ? (enrolledIn.get(user.id)?.length ?? 0) : 0,
          invited: Boolean(user) && invitedEmails.has(row.email),
          errors:
            outcome === "alreadyRegistered"
              ? [LEARNER_IMPORT_ERRORS.alreadyRegistered]
              : row.errors,
        };
      });
      const count = (outcome: LearnerImportResultRow["outcome"]) =>
        rows.filter((row) => row.outcome === outcome).length;
      return {
        rows,
        registered: count("registered"),
        alreadyRegistered: count("alreadyRegistered"),
        rejected: count("rejected"),
        enrolled: rows.reduce((sum, row) => sum + row.enrolled, 0),
      };
    },
  };
}

export type LearnersImportService = ReturnType<typeof createLearnersImportService>;
