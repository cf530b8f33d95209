import {
  HEARTBEAT_INTERVAL_MS,
  type HeartbeatBody,
  MAX_HEARTBEAT_INTERVALS,
  MAX_PLAYBACK_RATE,
  WATCH_MESSAGES,
} from "@contract";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorCodeOf } from "../../../lib/api-client";
import { sendHeartbeat, storeModuleWatch } from "../api/send-heartbeat";

/** A jump larger than this between two time updates is a seek, not playback. */
const MAX_SAMPLE_STEP_SECONDS = 3;

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Reports what the learner plays. It samples the video's time while it plays
 * (seeks are not playback), and sends the played intervals every few seconds and on pause,
 * seek, end, leaving and hiding the page. The server decides what counts; this only reports.
 * In verified courses the video pauses when the page is hidden, since nothing played
 * there counts.
 */
export function useWatchTracker(
  video: HTMLVideoElement | null,
  options: { courseId: string; moduleId: string; pauseWhenHidden: boolean },
) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const { courseId, moduleId, pauseWhenHidden } = options;

  useEffect(() => {
    if (!video) return;
    let pending: [number, number][] = [];
    let last: number | null = null;
    // One heartbeat at a time, in order: the server paces credit between them.
    let queue: Promise<void> = Promise.resolve();
    // The start of playback is not reported yet (the video's length was still unknown).
    let startUnsent = false;

    const sample = () => {
      const now = video.currentTime;
      if (last !== null && !video.seeking) {
        const step = now - last;
        if (step > 0 && step <= MAX_SAMPLE_STEP_SECONDS) {
          const tail = pending[pending.length - 1];
          if (tail && Math.abs(tail[1] - last) < 0.001) tail[1] = now;
          else pending.push([last, now]);
        }
      }
      last = video.seeking ? null : now;
    };

    /** Sends what played since the last heartbeat; false while the length is unknown. */
    const flush = (keepalive = false) => {
      const duration = video.duration;
      if (!Number.isFinite(duration) || duration <= 0) return false;
      const intervals = pending
        .slice(-MAX_HEARTBEAT_INTERVALS)
        .map(([s, e]): [number, number] => [round(s), round(Math.min(e, duration))]);
      pending = [];
      const body: HeartbeatBody = {
        courseId,
        moduleId,
        intervals,
        position: round(Math.min(video.currentTime, duration)),
        duration,
        playbackRate: video.playbackRate,
        visible: document.visibilityState === "visible",
      };
      queue = queue.then(() =>
        sendHeartbeat(body, { keepalive }).then(
          (state) => {
            storeModuleWatch(queryClient, courseId, state);
            setError(null);
          },
          (failure: unknown) => {
            // A refused report says why (e.g. the video's length does not match the module);
            // network blips are retried by the next heartbeat's position.
            const refusal = watchRefusal(failure);
            if (refusal) setError(refusal);
          },
        ),
      );
      return true;
    };

    const onTime = () => sample();
    // Starting to play is reported at once: the server counts the time before it as not
    // watched, in this tab and every other one of the learner's.
    const onPlay = () => {
      last = video.currentTime;
      startUnsent = !flush();
    };
    const onPlaying = () => {
      if (!startUnsent) return;
      sample();
      startUnsent = !flush();
    };
    const onStop = () => {
      sample();
      flush();
      last = null;
    };
    const onSeeking = () => {
      sample();
      last = null;
    };
    const onSeeked = () => {
      last = video.paused ? null : video.currentTime;
    };
    const onRate = () => {
      if (video.playbackRate > MAX_PLAYBACK_RATE) video.playbackRate = MAX_PLAYBACK_RATE;
    };
    const onVisibility = () => {
      if (document.visibilityState !== "hidden") return;
      // What played while visible goes now, flagged visible; then hidden time counts nothing.
      sample();
      flush();
      if (pauseWhenHidden && !video.paused) video.pause();
    };
    const onPageHide = () => {
      sample();
      flush(true);
    };
    const timer = window.setInterval(() => {
      if (video.paused) return;
      sample();
      flush();
    }, HEARTBEAT_INTERVAL_MS);

    // One abort removes every listener below when the module changes or the page unmounts.
    const listening = new AbortController();
    const options = { signal: listening.signal };
    video.addEventListener("timeupdate", onTime, options);
    video.addEventListener("play", onPlay, options);
    video.addEventListener("playing", onPlaying, options);
    video.addEventListener("pause", onStop, options);
    video.addEventListener("ended", onStop, options);
    video.addEventListener("seeking", onSeeking, options);
    video.addEventListener("seeked", onSeeked, options);
    video.addEventListener("ratechange", onRate, options);
    document.addEventListener("visibilitychange", onVisibility, options);
    window.addEventListener("pagehide", onPageHide, options);
    return () => {
      window.clearInterval(timer);
      listening.abort();
      // Leaving the module (or the page): report what played since the last heartbeat.
      if (!video.paused) sample();
      if (pending.length) flush(true);
    };
  }, [video, courseId, moduleId, pauseWhenHidden, queryClient]);

  return { error };
}

/** What the learner is told when the server refuses a heartbeat's report; null otherwise. */
function watchRefusal(failure: unknown): string | null {
  switch (errorCodeOf(failure)) {
    case "watching.beyond_duration":
      return WATCH_MESSAGES.beyondDuration;
    case "watching.duration_mismatch":
      return WATCH_MESSAGES.durationMismatch;
    case "watching.impossible_report":
      return WATCH_MESSAGES.impossibleReport;
    default:
      return null;
  }
}
