import { performance } from "node:perf_hooks";
import { setTimeout as rest } from "node:timers/promises";

/** A learner as the search knows them: the keyset position and the searched text. */
export interface SearchEntryRow {
  id: string;
  /** created_at as exact UTC text with microseconds (db/cursor.ts exactTime). */
  cursorAt: string;
  name: string;
  email: string;
}

interface Entry {
  id: string;
  at: string;
  /** Folded name and email joined by NUL, which no search term reaches across. */
  text: string;
}

/** The candidates for one page of a search. */
export interface SearchWindow {
  /** The learners that may make the page: PostgreSQL orders, cuts and checks them. */
  ids: string[];
  /** How many rows PostgreSQL must return if it agrees with the index on every candidate. */
  expected: number;
}

const SEPARATOR = "\u0000";

/**
 * Lower case one character at a time, so that a term found in PostgreSQL's ILIKE is found
 * here too: PostgreSQL folds each character on its own (only ASCII under the C locale of
 * the embedded databases, Unicode's simple mapping under glibc), and a fold that maps every
 * character at least as far keeps every substring match. JavaScript's toLowerCase alone
 * would fold "İ" to two characters and a final "Σ" by its context.
 */
export function fold(text: string): string {
  if (!/[\u0080-\uffff]/.test(text)) return text.toLowerCase();
  let out = "";
  for (const char of text) {
    const lower = char.toLowerCase();
    out += lower.length === char.length ? lower : char === "\u0130" ? "i" : char;
  }
  return out;
}

/** Three UTF-16 units as one number: 48 bits, exact in a double. */
const trigramAt = (text: string, i: number) =>
  text.charCodeAt(i) * 4_294_967_296 + text.charCodeAt(i + 1) * 65_536 + text.charCodeAt(i + 2);

function* trigramsOf(text: string): Generator<number> {
  for (let i = 0; i + 3 <= text.length; i++) {
    if (text[i] === SEPARATOR || text[i + 1] === SEPARATOR || text[i + 2] === SEPARATOR) continue;
    yield trigramAt(text, i);
  }
}

const entryOf = (row: SearchEntryRow): Entry => ({
  id: row.id,
  at: row.cursorAt,
  text: `${fold(row.name)}${SEPARATOR}${fold(row.email)}`,
});

/** A cursor's time as the index's fixed-width text (a client may send fewer digits). */
export function exactAt(createdAt: string): string {
  const [seconds, fraction = ""] = createdAt.slice(0, -1).split(".");
  return `${seconds}.${fraction.padEnd(6, "0")}Z`;
}

/**
 * `entries` (newest first) as far as a page of `want` rows after a cursor at `until` can
 * reach: the first `want` strictly before the cursor's instant, with every entry sharing the
 * cursor's instant or the last one's, whose order PostgreSQL's collation decides.
 */
function* upToPage(entries: Iterable<Entry>, want: number, until: string | undefined) {
  let counted = 0;
  let lastAt: string | undefined;
  for (const entry of entries) {
    if (entry.at !== until) {
      if (counted >= want && entry.at !== lastAt) return;
      counted++;
      lastAt = entry.at;
    }
    yield entry;
  }
}

/**
 * The longest a build holds the portal's thread before letting waiting requests run, and
 * then rests at least as long: a build takes most of a second at 100,000 learners, more on
 * a busy host. Without the rests the thread would never be idle while it builds, and the
 * load shedding (which reads a thread busy all the time as overload) would refuse requests.
 */
const BUILD_SLICE_MS = 4;
/** The longest rest: a build on a portal busy all the while still ends within minutes. */
const LONGEST_REST_MS = 256;

/**
 * The rest after the next slice, from the last rest and how busy the thread was during it:
 * requests that filled most of a rest mean a busy portal, and the build steps further back
 * (doubling its rest), so that the requests and the build together leave the thread idle
 * at times; a quiet rest brings the build back to its pace.
 */
export function nextRestMs(lastRestMs: number, busyDuringRest: number): number {
  return busyDuringRest > 0.5 ? Math.min(lastRestMs * 2, LONGEST_REST_MS) : BUILD_SLICE_MS;
}

/** Candidates few enough to check whole rather than narrow down by another piece's list. */
const FEW_CANDIDATES = 32;

/** The slots in both ascending lists, ascending. */
function intersection(a: Int32Array, b: Int32Array): Int32Array {
  const out = new Int32Array(Math.min(a.length, b.length));
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out[n++] = a[i]!;
      i++;
      j++;
    }
  }
  return out.subarray(0, n);
}

/** Says when a build's slice of work is used up, checking the clock every 256 learners. */
function timeSlices() {
  let until = performance.now() + BUILD_SLICE_MS;
  let restMs = BUILD_SLICE_MS;
  return {
    due: (slot: number) => (slot & 255) === 255 && performance.now() >= until,
    async next() {
      const before = performance.eventLoopUtilization();
      await rest(restMs);
      restMs = nextRestMs(restMs, performance.eventLoopUtilization(before).utilization);
      until = performance.now() + BUILD_SLICE_MS;
    },
  };
}

/**
 * Every learner's name and email in memory, with the learners each three-letter piece
 * occurs in, so a search by any part of a name or email finds its few candidates without
 * PostgreSQL's trigram index, whose posting lists for pieces every learner shares (the
 * domain, "learner") cost milliseconds a search. Pieces found in more than `common` learners
 * keep no list: a term made only of those matches many learners, and the learners are walked
 * newest first until the page is full.
 *
 * Built from the learners newest first, then kept current by changed learners (`apply`);
 * `outweighed` says when enough has changed that a rebuild is cheaper than the changes kept.
 */
export class LearnerSearchIndex {
  private readonly counts = new Map<number, number>();
  private readonly postings = new Map<number, Int32Array>();
  /** Learners changed since the build: their built entries no longer count. */
  private readonly removed = new Set<string>();
  /** Learners added or changed since the build, as they are now. */
  private readonly added = new Map<string, Entry>();

  private constructor(
    /** Newest first (created_at desc, id desc), as PostgreSQL ordered them. */
    private readonly entries: Entry[],
    private readonly common: number,
  ) {}

  static async build(rows: SearchEntryRow[]): Promise<LearnerSearchIndex> {
    const slices = timeSlices();
    const entries: Entry[] = [];
    for (let slot = 0; slot < rows.length; slot++) {
      entries.push(entryOf(rows[slot]!));
      if (slices.due(slot)) await slices.next();
    }
    const index = new LearnerSearchIndex(entries, Math.max(2_000, Math.ceil(entries.length / 20)));
    await index.fill(slices);
    return index;
  }

  private async fill(slices: ReturnType<typeof timeSlices>) {
    const { counts, entries } = this;
    for (let slot = 0; slot < entries.length; slot++) {
      for (const key of trigramsOf(entries[slot]!.text))
        counts.set(key, (counts.get(key) ?? 0) + 1);
      if (slices.due(slot)) await slices.next();
    }
    // One buffer for every kept list, each list's slots ascending (fromPostings intersects
    // them); a piece repeated in one learner is counted twice above but written once, so a
    // list may end before its share of the buffer.
    let total = 0;
    const starts = new Map<number, number>();
    for (const [key, count] of counts) {
      if (count > this.common) continue;
      starts.set(key, total);
      total += count;
    }
    const buffer = new Int32Array(total);
    const ends = new Map(starts);
    for (let slot = 0; slot < entries.length; slot++) {
      for (const key of trigramsOf(entries[slot]!.text)) {
        const end = ends.get(key);
        if (end === undefined || (end > starts.get(key)! && buffer[end - 1] === slot)) continue;
        buffer[end] = slot;
        ends.set(key, end + 1);
      }
      if (slices.due(slot)) await slices.next();
    }
    for (const [key, start] of starts)
      this.postings.set(key, buffer.subarray(start, ends.get(key)));
  }

  /** Learners changed since the build: `rows` are those of `ids` who are learners now. */
  apply(ids: Iterable<string>, rows: SearchEntryRow[]) {
    for (const id of ids) {
      this.removed.add(id);
      this.added.delete(id);
    }
    for (const row of rows) this.added.set(row.id, entryOf(row));
  }

  /** True when the changes kept beside the build, and `pending` more, outweigh a tenth of it. */
  outweighed(pending: number) {
    const kept = this.removed.size + this.added.size + pending;
    return kept > Math.max(1_000, this.entries.length / 10);
  }

  /**
   * The learners whose name or email contains `term` (any case) that may fill a page of
   * `want` rows after `after`: every match up to the `want`-th strictly after the cursor's
   * time, and those sharing a time with the cursor or with the last of them, whose order
   * PostgreSQL's collation decides. Undefined when the term is one the index cannot answer.
   */
  window(term: string, want: number, after?: { createdAt: string }): SearchWindow | undefined {
    if (term.includes(SEPARATOR)) return undefined;
    const needle = fold(term);
    const until = after ? exactAt(after.createdAt) : undefined;
    const fits = (entry: Entry) =>
      (until === undefined || entry.at <= until) && entry.text.includes(needle);

    const found = this.fromPostings(needle, fits) ?? this.walk(fits, want, until);
    for (const entry of this.added.values()) if (fits(entry)) found.push(entry);
    found.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));

    const page = [...upToPage(found, want, until)];
    const beforeCursor = page.filter((entry) => entry.at !== until).length;
    return { ids: page.map((entry) => entry.id), expected: Math.min(want, beforeCursor) };
  }

  /**
   * The built learners matching: the lists of the term's pieces intersected, rarest first,
   * until a few candidates are left, and each of those checked whole. A term's pieces are
   * each shared by a hundredth of the learners or so (the digits of an address), and the
   * learners they share are far fewer: comparing slot numbers costs much less than reading
   * every learner of the rarest list. Undefined when none of its pieces keeps a list.
   */
  private fromPostings(needle: string, fits: (entry: Entry) => boolean): Entry[] | undefined {
    if (needle.length < 3) return undefined;
    const lists: Int32Array[] = [];
    for (const key of trigramsOf(needle)) {
      if (!this.counts.has(key)) return [];
      const list = this.postings.get(key);
      if (list) lists.push(list);
    }
    if (lists.length === 0) return undefined;
    lists.sort((a, b) => a.length - b.length);
    let slots = lists[0]!;
    for (let i = 1; i < lists.length && slots.length > FEW_CANDIDATES; i++)
      slots = intersection(slots, lists[i]!);
    const found: Entry[] = [];
    for (const slot of slots) {
      const entry = this.entries[slot]!;
      if (!this.removed.has(entry.id) && fits(entry)) found.push(entry);
    }
    return found;
  }

  /** The built learners matching, newest first from the cursor, until the page is full. */
  private walk(fits: (entry: Entry) => boolean, want: number, until: string | undefined): Entry[] {
    const { entries, removed } = this;
    let slot = 0;
    if (until !== undefined) {
      // Entries are newest first: find the first at or before the cursor's time.
      let high = entries.length;
      while (slot < high) {
        const middle = (slot + high) >>> 1;
        if (entries[middle]!.at > until) slot = middle + 1;
        else high = middle;
      }
    }
    function* matching(from: number) {
      for (let at = from; at < entries.length; at++) {
        const entry = entries[at]!;
        if (!removed.has(entry.id) && fits(entry)) yield entry;
      }
    }
    return [...upToPage(matching(slot), want, until)];
  }
}
