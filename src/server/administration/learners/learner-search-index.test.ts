import { describe, expect, it } from "vitest";
import {
  exactAt,
  fold,
  LearnerSearchIndex,
  nextRestMs,
  type SearchEntryRow,
} from "./learner-search-index";

/** Learners as PostgreSQL lists them: newest first, then by id, descending. */
const newestFirst = (a: SearchEntryRow, b: SearchEntryRow) =>
  a.cursorAt < b.cursorAt ? 1 : a.cursorAt > b.cursorAt ? -1 : a.id < b.id ? 1 : -1;

const at = (second: number, micro = 0) =>
  `2026-03-01T10:${String(Math.floor(second / 60)).padStart(2, "0")}:${String(second % 60).padStart(2, "0")}.${String(micro).padStart(6, "0")}Z`;

/**
 * 3,000 learners: names and emails with shared pieces (every email ends in one domain), some
 * accented and upper case, and runs of 40 registered in one instant as an import does.
 */
function learners(): SearchEntryRow[] {
  const given = ["Ada", "Grace", "ZOË", "José", "Ørsted", "Łukasz", "Ian", "Mary-Ann"];
  const family = ["Lovelace", "Hopper", "Müller", "O'Brien", "Smith", "ÁLVAREZ", "Nakamura"];
  const rows: SearchEntryRow[] = [];
  for (let n = 0; n < 3_000; n++) {
    const name = `${given[n % given.length]} ${family[(n * 7) % family.length]} ${n}`;
    rows.push({
      id: `u${String(n).padStart(5, "0")}`,
      cursorAt: n % 100 < 40 ? at(Math.floor(n / 100) * 100) : at(n, n % 7),
      name,
      email: `${name.split(" ")[0]!.toLowerCase()}.${n}@Provider.example`,
    });
  }
  return rows.sort(newestFirst);
}

const matching = (rows: SearchEntryRow[], term: string) =>
  rows.filter((r) => fold(r.name).includes(fold(term)) || fold(r.email).includes(fold(term)));

/** The page PostgreSQL gives: matches after the cursor in list order, `want` of them. */
function page(rows: SearchEntryRow[], term: string, want: number, after?: SearchEntryRow) {
  return matching(rows, term)
    .filter((r) => !after || newestFirst(after, r) < 0)
    .slice(0, want)
    .map((r) => r.id);
}

/** Checks the index's window against the page, for the first pages of `term`. */
function expectWindows(index: LearnerSearchIndex, rows: SearchEntryRow[], term: string) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  let after: SearchEntryRow | undefined;
  for (let pages = 0; pages < 4; pages++) {
    const want = 26;
    const expected = page(rows, term, want, after);
    const window = index.window(term, want, after && { createdAt: after.cursorAt })!;
    // Every learner of the page is a candidate, and every candidate matches.
    expect(window.ids, term).toEqual(expect.arrayContaining(expected));
    const needle = fold(term);
    for (const id of window.ids) {
      const row = byId.get(id)!;
      expect(`${fold(row.name)} ${fold(row.email)}`, term).toContain(needle);
    }
    // PostgreSQL must return at least the matches surely after the cursor: those of an
    // earlier instant, up to a page.
    const earlier = matching(rows, term).filter((r) => !after || r.cursorAt < after.cursorAt);
    expect(window.expected, term).toBe(Math.min(want, earlier.length));
    expect(window.expected, term).toBeLessThanOrEqual(expected.length);
    if (expected.length < want) return;
    after = byId.get(expected[want - 2]!)!;
  }
}

describe("learner search index", () => {
  it("finds the learners of every page that PostgreSQL's search finds, rare terms and common", async () => {
    const rows = learners();
    const index = await LearnerSearchIndex.build(rows);
    for (const term of [
      "ada",
      "LOVELACE",
      "zoë",
      "ZOË",
      "josé",
      "ørsted",
      "łukasz",
      "álvarez",
      "o'brien",
      "mary-ann",
      "provider.example",
      "@provider",
      "1234",
      ".1234@",
      "7",
      "e",
      "ian nakamura 2",
      "grace hopper 1",
      "ce 12",
      "nobody",
      "zz",
    ]) {
      expectWindows(index, rows, term);
    }
  });

  it("counts only the candidates surely after the cursor, and keeps those sharing its instant", async () => {
    const rows = learners();
    const index = await LearnerSearchIndex.build(rows);
    // Learners 0..39 share one instant: a cursor inside it leaves PostgreSQL to order by id.
    const tied = rows.filter((r) => r.cursorAt === at(0));
    expect(tied).toHaveLength(40);
    const cursor = tied[10]!;
    const window = index.window("provider", 5, { createdAt: cursor.cursorAt })!;
    expect(window.ids).toEqual(expect.arrayContaining(tied.map((r) => r.id)));
    expect(window.expected).toBe(0);
    // A cursor sent with fewer fraction digits is the same instant.
    expect(exactAt("2026-03-01T10:00:00Z")).toBe(at(0));
    expect(exactAt("2026-03-01T10:00:00.5Z")).toBe("2026-03-01T10:00:00.500000Z");
  });

  it("sees learners who joined, changed or left since it was built", async () => {
    const rows = learners();
    const index = await LearnerSearchIndex.build(rows);
    const renamed = rows[5]!;
    const left = rows.find((r) => r.name.startsWith("Grace"))!;
    const joined: SearchEntryRow = {
      id: "u99999",
      cursorAt: at(3_600),
      name: "Hedy Lamarr",
      email: "hedy@provider.example",
    };
    const now = { ...renamed, name: "Katherine Johnson" };
    index.apply([renamed.id, left.id, joined.id], [now, joined]);
    const current = [...rows.filter((r) => r.id !== renamed.id && r.id !== left.id), now, joined];
    current.sort(newestFirst);

    expect(index.window("lamarr", 26)).toEqual({ ids: ["u99999"], expected: 1 });
    expect(index.window("katherine", 26)).toEqual({ ids: [renamed.id], expected: 1 });
    expect(index.window(renamed.name, 26)).toEqual({ ids: [], expected: 0 });
    expect(index.window(left.email, 26)).toEqual({ ids: [], expected: 0 });
    for (const term of ["provider", "grace", "hedy", "e"]) expectWindows(index, current, term);
  });

  it("says when the changes kept outweigh a rebuild", async () => {
    const index = await LearnerSearchIndex.build(learners());
    expect(index.outweighed(1_000)).toBe(false);
    index.apply(["u00001"], []);
    expect(index.outweighed(1_000)).toBe(true);
  });

  it("lets waiting requests run while it builds", async () => {
    // Twenty times the learners above: a build far longer than one slice of the thread.
    const rows = Array.from({ length: 20 }, (_, copy) =>
      learners().map((r) => ({ ...r, id: `${r.id}-${copy}` })),
    ).flat();
    let answered = false;
    setImmediate(() => {
      answered = true;
    });
    const index = await LearnerSearchIndex.build(rows);
    expect(answered).toBe(true);
    expect(index.window("lovelace 12", 26)?.expected).toBe(26);
  });

  it("rests longer while requests keep the thread busy, and comes back to its pace when they stop", () => {
    expect(nextRestMs(4, 0.1)).toBe(4);
    expect(nextRestMs(4, 0.9)).toBe(8);
    expect(nextRestMs(128, 0.9)).toBe(256);
    expect(nextRestMs(256, 1)).toBe(256);
    expect(nextRestMs(256, 0.2)).toBe(4);
  });

  it("leaves a term reaching across name and email to PostgreSQL", async () => {
    const index = await LearnerSearchIndex.build(learners());
    expect(index.window("ada\u0000ada", 26)).toBeUndefined();
  });

  it("folds each character on its own, as PostgreSQL does", () => {
    expect(fold("Ada LOVELACE")).toBe("ada lovelace");
    expect(fold("ZOË ÁLVAREZ")).toBe("zoë álvarez");
    // toLowerCase alone would give two characters for İ and a final sigma for the last Σ.
    expect(fold("İSTANBUL")).toBe("istanbul");
    expect(fold("ΟΔΥΣΣΕΥΣ")).toBe("οδυσσευσ");
  });
});
