import { PACKAGE_SEAT_INTERVAL_MS, type PackageAttemptStatus } from "@contract";
import { useEffect } from "react";
import { sendSeatBeat } from "../api/package-run";

/**
 * Seat time while a package's content is open (`active`): a beat every 15 s while the page
 * shows, one when it hides (the time before was visible), one when it shows again (the time
 * before was not) and one when the content closes. Each answer goes to `took`. With the
 * attempt the launch opened, a beat after that attempt ended opens no new one.
 */
export function useSeatBeats(
  courseId: string,
  moduleId: string,
  active: boolean,
  took: (status: PackageAttemptStatus) => void,
  attemptId?: string,
) {
  useEffect(() => {
    if (!active) return;
    const beat = (visible: boolean, keepalive = false) =>
      sendSeatBeat(courseId, moduleId, { visible, attemptId }, { keepalive }).then(
        took,
        () => undefined,
      );
    void beat(false);
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") void beat(true);
    }, PACKAGE_SEAT_INTERVAL_MS);
    const onVisibility = () => void beat(document.visibilityState !== "visible");
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      void beat(document.visibilityState === "visible", true);
    };
  }, [active, courseId, moduleId, took, attemptId]);
}
