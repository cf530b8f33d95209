import { and, desc, eq, ilike, inArray, or, type Placeholder, type SQL, sql } from "drizzle-orm";
import { MAX_PAGE_SIZE } from "../../../contract";
import { courseSummaries } from "../../catalogue";
import type { Executor } from "../../db/client";
import { exactTime, type KeysetCursor } from "../../db/cursor";
import { preparedOnce } from "../../db/prepared";
import { enrollmentRecords } from "../../learning";
import { identityProviderNames, userAccounts } from "../../people";
import type { SearchEntryRow } from "./learner-search-index";

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A learner of a page as the JSON text PostgreSQL built, with its keyset position. */
export interface LearnerJsonRow {
  /** 1 for the newest learner of the page. */
  ordinal: number;
  cursorAt: string;
  id: string;
  json: string;
  /** The courses in `json`, for the page cache's tags without parsing it again. */
  courseIds: string[];
}

/**
 * The most rows a page asks for: MAX_PAGE_SIZE and one more to know whether another page
 * exists (learners.service.ts).
 */
const MOST_ROWS = MAX_PAGE_SIZE + 1;

/**
 * One statement for a whole page: the learners (keyset order, limit, cursor,
 * search) and, per learner, the enrollment figures and course list, serialized to JSON by
 * PostgreSQL. Node receives a row of text per learner instead of one row per enrollment.
 *
 * The JSON is exactly what `learnerSummarySchema` describes and what JSON.stringify of
 * `{ ...toUser(user), figures, courses }` gives: the same keys in the same order (the
 * column aliases), `createdAt` as Date#toISOString (milliseconds, truncated like a JS
 * Date), courses in enrollment order; learners.service.test.ts compares the two byte for
 * byte. The user columns are named one by one: no password hash or other column can reach
 * the answer. `row_to_json` and `string_agg` keep the text compact (`json_agg` and
 * `json_build_object` add spaces).
 *
 * Plan choices, measured at 100,000 learners (learners.explain.test.ts checks them):
 * - The users are read under a constant limit (MOST_ROWS) before the requested one: a
 *   prepared statement's generic plan knows no parameter and assumes that `limit $1` keeps
 *   10% of all learners, which it reads with a parallel sequential scan and a sort (~90 ms);
 *   under a constant it reads the index in order and stops after the page.
 * - The page is a CTE read twice: once for the course titles, fetched in one pass for the
 *   whole page (one lookup of each title per enrollment let the planner scan a small
 *   courses table for every enrollment, 3x slower with 200 courses), and once per learner.
 * - PostgreSQL 15 does not know a CTE's row order, and an ORDER BY would add a sort: the
 *   rows carry their position in the page instead, and `page()` puts them in that order.
 */
function pageStatement(d: Executor, where: SQL | undefined, limit: Placeholder) {
  // The learners, courses and enrollments as their owners expose them, short for the SQL.
  const u = userAccounts;
  const c = courseSummaries;
  const e = enrollmentRecords;
  const n = identityProviderNames;
  return d
    .select({
      ordinal: sql<number>`learner_rows.ordinal`,
      cursorAt: sql<string>`learner_rows.cursor_at`,
      id: sql<string>`learner_rows.id`,
      json: sql<string>`learner_rows.json`,
      courseIds: sql<string[]>`learner_rows.course_ids`,
    })
    .from(sql`(
      with page as materialized (
        select listed.*,
          (row_number() over (order by listed.created_at desc, listed.id desc))::int as ordinal
        from (
          select * from (
            select ${u.id} as id, ${u.name} as name, ${u.email} as email,
              ${u.phone} as phone, ${u.role} as role, ${u.status} as status,
              ${u.createdAt} as created_at, ${u.firebaseUid} as firebase_uid,
              ${u.isRegisteredByAdmin} as is_registered_by_admin,
              ${u.passwordSetup} as password_setup,
              ${u.createdBySignOn} as created_by_sign_on,
              ${exactTime(u.createdAt)} as cursor_at
            from ${u}
            where ${and(eq(u.role, "learner"), where)}
            order by ${u.createdAt} desc, ${u.id} desc
            limit ${sql.raw(String(MOST_ROWS))}
          ) as bounded
          order by bounded.created_at desc, bounded.id desc
          limit ${limit}
        ) as listed
      ),
      titles as (
        select jsonb_object_agg(${c.id}, ${c.title}) as by_id
        from ${c}
        where ${c.id} in (
          select ${e.courseId} from page join ${e} on ${e.userId} = page.id
        )
      )
      select page.ordinal, page.cursor_at, page.id, row_to_json(l)::text as json, s.course_ids
      from page
      cross join lateral (
        select count(*)::int as enrolled,
          (count(*) filter (where not ${e.isCompleted} and ${e.progress} > 0))::int
            as in_progress,
          (count(*) filter (where ${e.isCompleted}))::int as completed,
          coalesce(round(avg(${e.progress}))::int, 0) as average,
          coalesce(
            '[' || string_agg(row_to_json(entry)::text, ','
              order by ${e.createdAt}, ${e.id}) || ']',
            '[]'
          ) as courses,
          coalesce(array_agg(${e.courseId}), '{}') as course_ids
        from ${e}
        cross join lateral (
          select ${e.id} as "enrollmentId", ${e.courseId} as "courseId",
            (select by_id from titles) ->> ${e.courseId} as "title",
            ${e.progress} as "progress", ${e.isCompleted} as "isCompleted"
        ) as entry
        where ${e.userId} = page.id
      ) as s
      cross join lateral (
        select page.id as "id", page.name as "name", page.email as "email",
          page.phone as "phone", page.role as "role", page.status as "status",
          to_char(page.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            as "createdAt",
          page.firebase_uid as "firebaseUid", page.is_registered_by_admin as "isRegisteredByAdmin",
          page.password_setup as "passwordSetup", s.enrolled as "enrolledCount",
          s.in_progress as "inProgressCount", s.completed as "completedCount",
          s.average as "averageProgress", s.courses::json as "courses",
          case when page.created_by_sign_on is null then null else (
            select row_to_json(p) from (
              select (
                select ${n.name} from ${n} where ${n.id} = page.created_by_sign_on
              ) as "providerName"
            ) as p
          ) end as "createdBySignOn"
      ) as l
    ) as learner_rows`);
}

/**
 * The Learners page read model. It joins users, enrollments and courses in SQL on
 * purpose, as their owners expose them for reports: the figures for a page of learners must
 * come from one aggregate query, never from loading every enrollment into Node (100,000
 * learners).
 */
export function createLearnersRepository(db: Executor) {
  const u = userAccounts;
  /**
   * The page statement of one shape, built once per database handle (building this query
   * costs Node more than running it costs PostgreSQL). Without a search it is a named
   * prepared statement, parsed and planned once per connection. With a search its name is
   * empty: PostgreSQL's unnamed statement, planned for each pattern (a trigram bitmap scan
   * for a rare term, the ordered index stopping after the page for a common one; one
   * generic plan would be slow for one of them). Among the search index's candidates it is
   * named again: the candidates lead every plan through the primary key.
   */
  const prepared = (search: "none" | "database" | "candidates", after: boolean) => {
    const key = `learners_page${search === "none" ? "" : `_${search}`}${after ? "_after" : ""}`;
    return preparedOnce(db, key, (d) => {
      const pattern = sql.placeholder("pattern");
      const searched = {
        none: undefined,
        database: or(ilike(u.name, pattern), ilike(u.email, pattern)),
        // The search index's candidates, checked by the same ILIKE on expressions no index
        // serves: a generic plan may otherwise AND the trigram indexes' bitmaps with the
        // candidates' (milliseconds for a common term) instead of reading the candidates alone.
        candidates: sql`${u.id} = any(${sql.placeholder("ids")}::text[])
          and ((${u.name} || '') ilike ${pattern} or (${u.email} || '') ilike ${pattern})`,
      }[search];
      return pageStatement(
        d,
        and(
          searched,
          // afterCursor's comparison, with placeholders for the cursor.
          after
            ? sql`(${u.createdAt}, ${u.id}) < (${sql.placeholder("afterAt")}::timestamptz, ${sql.placeholder("afterId")})`
            : undefined,
        ),
        sql.placeholder("limit"),
      ).prepare(search === "database" ? "" : key);
    });
  };
  const searchColumns = {
    id: u.id,
    cursorAt: exactTime(u.createdAt),
    name: u.name,
    email: u.email,
  };

  return {
    /**
     * A page of learners (`limit` rows, newest first, after `after`, matching `q` in name or
     * email), each as its Learners-page JSON, in page order.
     */
    async page(options: {
      limit: number;
      after?: KeysetCursor;
      q?: string;
      /** With `q`: only these learners, the search index's candidates for the page. */
      among?: string[];
    }): Promise<LearnerJsonRow[]> {
      const { limit, after, q, among } = options;
      if (!Number.isInteger(limit) || limit < 1 || limit > MOST_ROWS) {
        throw new RangeError(`learners page: limit must be 1..${MOST_ROWS}`);
      }
      const search = !q ? "none" : among ? "candidates" : "database";
      const rows = await prepared(search, Boolean(after)).execute({
        limit,
        ...(q ? { pattern: likePattern(q) } : {}),
        ...(among ? { ids: among } : {}),
        ...(after ? { afterAt: after.createdAt, afterId: after.id } : {}),
      });
      return rows.sort((a, b) => a.ordinal - b.ordinal);
    },

    /** Every learner's name and email for the search index, newest first; undefined past `most`. */
    async searchEntries(most: number): Promise<SearchEntryRow[] | undefined> {
      const rows = await db
        .select(searchColumns)
        .from(u)
        .where(eq(u.role, "learner"))
        .orderBy(desc(u.createdAt), desc(u.id))
        .limit(most + 1);
      return rows.length > most ? undefined : rows;
    },

    /** Those of `ids` who are learners now, for the search index to catch up with. */
    async searchEntriesOf(ids: string[]): Promise<SearchEntryRow[]> {
      return db
        .select(searchColumns)
        .from(u)
        .where(and(eq(u.role, "learner"), inArray(u.id, ids)));
    },
  };
}

export type LearnersRepository = ReturnType<typeof createLearnersRepository>;
