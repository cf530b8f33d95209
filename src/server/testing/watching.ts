import { useTestApp } from "./test-app";

/**
 * useTestApp with a watching clock the test moves by hand: watch credit is paced by the
 * wall clock, and a real one makes the figures depend on how fast the machine runs.
 */
export function useWatchingTestApp() {
  let at = Date.parse("2030-01-01T00:00:00Z");
  const clock = {
    now: () => new Date(at),
    advance: (seconds: number) => {
      at += seconds * 1000;
    },
  };
  const ctx = useTestApp({}, { clock: clock.now });
  return { ctx, clock };
}
