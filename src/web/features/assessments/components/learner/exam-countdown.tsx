import { TimerIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { cn } from "../../../../lib/utils";

const msLeft = (deadline: number) => Math.max(0, deadline - Date.now());

/** "1:05:09", "4:07", "0:09". */
function formatRemaining(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours
    ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}`
    : `${minutes}:${seconds}`;
}

/**
 * The time left before the attempt's deadline. The clock itself stays silent for screen
 * readers (a ticking announcement every second would drown the questions); a separate live
 * region says once when one minute is left. Calls `onExpire` once at zero.
 */
export function ExamCountdown({ deadline, onExpire }: { deadline: string; onExpire: () => void }) {
  const end = new Date(deadline).getTime();
  const [left, setLeft] = useState(() => msLeft(end));
  const expired = useRef(false);
  const onExpireRef = useRef(onExpire);
  useEffect(() => {
    onExpireRef.current = onExpire;
  }, [onExpire]);

  useEffect(() => {
    // A clock has to tick; everything else on the page waits on events instead.
    const tick = () => {
      const now = msLeft(end);
      setLeft(now);
      if (now === 0 && !expired.current) {
        expired.current = true;
        onExpireRef.current();
      }
    };
    tick();
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [end]);

  const lastMinute = left <= 60_000;
  return (
    <>
      <p
        className={cn(
          "inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1 text-sm font-semibold tabular-nums",
          lastMinute ? "bg-red-50 text-red-800 ring-1 ring-red-200" : "bg-zinc-100 text-zinc-900",
        )}
      >
        <TimerIcon className="size-4" aria-hidden="true" />
        <span className="sr-only">Time left: </span>
        <span role="timer" aria-live="off" aria-atomic="true" data-testid="exam-timer">
          {formatRemaining(left)}
        </span>
      </p>
      <p aria-live="assertive" className="sr-only">
        {left === 0 ? "Time is up." : lastMinute ? "One minute left." : ""}
      </p>
    </>
  );
}
