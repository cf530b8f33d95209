import { type Course, type HeartbeatBody, MAX_PLAYBACK_RATE, type Module } from "../../../contract";
import { creditIntervals, roundSeconds, totalSeconds } from "./intervals";
import { beyondDuration, durationMismatch, impossibleReport } from "./watching.errors";
import type { Intervals, ModuleWatchRow, moduleWatch, WatchClockRow } from "./watching.table";

/** Time unspent since the clock, up to this, can be credited: covers a late heartbeat. */
const MAX_CREDIT_GAP_SECONDS = 30;
/** Extra time allowed when judging a report impossible (network delay between beats). */
const REPORT_SLACK_SECONDS = 5;
/** Intervals may end this far past the video's length (players report the last frame late). */
const END_SLACK_SECONDS = 0.5;
/** A second report of the video's length may differ by this much (container rounding). */
const DURATION_SLACK_SECONDS = 2;

export interface Policy {
  completionPolicy: Course["completionPolicy"];
  minWatchPercent: number;
  minSeatSeconds: number | null;
}

/**
 * Whether a reported video length fits the module's video: its real length, read from the
 * file on upload (a player may round it, or differ by a frame or two), else the module's
 * stated whole minutes (a minute either way for rounding, and at least half of them: a
 * 1-minute module is not met by a 1-second video). Only verified courses insist: elsewhere
 * the length only places resume.
 */
const lengthFits = (module: Module, seconds: number) =>
  module.videoSeconds !== null
    ? Math.abs(seconds - module.videoSeconds) <=
      Math.max(DURATION_SLACK_SECONDS, module.videoSeconds / 100)
    : seconds >= Math.max((module.duration - 1) * 60, module.duration * 30) &&
      seconds <= (module.duration + 1) * 60;

/**
 * The record that counts for the module now: none if it was made for another video (since
 * replaced), or, in a verified course, with a length that does not fit the module (recorded
 * while the course was manual).
 */
export function current(row: ModuleWatchRow | undefined, module: Module, policy: Policy) {
  if (!row || row.videoUrl !== module.videoUrl) return undefined;
  if (
    policy.completionPolicy === "verified" &&
    row.durationSeconds !== null &&
    !lengthFits(module, row.durationSeconds)
  ) {
    return undefined;
  }
  return row;
}

/** One heartbeat to apply: who, where, what the player reported, and when it arrived. */
export interface Beat {
  userId: string;
  course: Course;
  module: Module;
  body: HeartbeatBody;
}

/** What a heartbeat changes: the learner's clock and the module's whole record. */
export interface BeatWrite {
  clock: Pick<WatchClockRow, "creditClockAt" | "lastBeatAt">;
  watch: typeof moduleWatch.$inferInsert;
}

/**
 * The rule of verified watching for one heartbeat, given the learner's clock and the
 * module's stored record: merged watched intervals, credited no faster than the wall clock.
 * The clock is the learner's one clock, shared by every course, module, tab and device, so
 * however many players run at once and however fast they play, all of the learner's
 * watching together earns at most the time that passed. Throws the refusal (nothing is to
 * be stored) for a report no player makes.
 */
export function applyBeat(
  { userId, course, module, body }: Beat,
  clock: WatchClockRow,
  stored: ModuleWatchRow | undefined,
  at: Date,
): BeatWrite {
  const before = current(stored, module, course);
  const duration = before?.durationSeconds ?? body.duration;
  if (before?.durationSeconds) {
    if (Math.abs(body.duration - before.durationSeconds) > DURATION_SLACK_SECONDS) {
      throw durationMismatch();
    }
  } else if (course.completionPolicy === "verified" && !lengthFits(module, body.duration)) {
    throw durationMismatch();
  }
  const limit = duration + END_SLACK_SECONDS;
  if (body.position > limit || body.intervals.some(([, end]) => end > limit)) {
    throw beyondDuration();
  }

  // Clipped to the video: an interval inside the end's slack plays nothing.
  const reported: Intervals = body.intervals
    .map(([s, e]): [number, number] => [Math.min(s, duration), Math.min(e, duration)])
    .filter(([s, e]) => e > s);
  const played = totalSeconds(reported);
  // More media time than the fastest allowed playback fits into the time since the
  // previous heartbeat: not a player's report. Refused whole, nothing stored.
  const now = at.getTime();
  const sinceBeat = Math.max(0, (now - clock.lastBeatAt.getTime()) / 1000);
  if (played > (sinceBeat + REPORT_SLACK_SECONDS) * MAX_PLAYBACK_RATE) {
    throw impossibleReport();
  }

  // The time this report earns: the wall-clock time its playing took (media time over the
  // rate: fast playback takes less), within the time no heartbeat of the learner has spent
  // yet (at most the last 30 s), and none at all in a hidden page. Watched and seat time
  // both grow by at most that much.
  const from = Math.max(clock.creditClockAt.getTime(), now - MAX_CREDIT_GAP_SECONDS * 1000);
  const visible = body.visible !== false;
  const unspent = visible ? Math.max(0, (now - from) / 1000) : 0;
  const rate = Math.min(Math.max(body.playbackRate ?? 1, 0.0625), MAX_PLAYBACK_RATE);
  const seat = Math.min(played / rate, unspent);
  const merged = creditIntervals(before?.intervals ?? [], reported, seat);
  // Nothing played in view (a player just starting to play, a hidden page): the time up to
  // now was not spent watching, and no later report of any tab may claim it. Otherwise the
  // unspent rest stays for the next report (one that arrives a little late).
  const creditClockAt =
    visible && played > 0
      ? Math.ceil(from + seat * 1000)
      : Math.max(clock.creditClockAt.getTime(), now);
  return {
    clock: {
      creditClockAt: new Date(creditClockAt),
      // Two beats stamped a moment apart may take the lock in either order.
      lastBeatAt: new Date(Math.max(clock.lastBeatAt.getTime(), now)),
    },
    watch: {
      userId,
      courseId: course.id,
      moduleId: module.id,
      videoUrl: module.videoUrl,
      durationSeconds: duration,
      intervals: merged,
      watchedSeconds: roundSeconds(totalSeconds(merged)),
      seatSeconds: roundSeconds((before?.seatSeconds ?? 0) + seat),
      positionSeconds: roundSeconds(Math.min(body.position, duration)),
      heartbeats: (before?.heartbeats ?? 0) + 1,
      lastHeartbeatAt: at,
      updatedAt: at,
    },
  };
}
