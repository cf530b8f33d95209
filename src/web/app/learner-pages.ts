import { preloadable } from "../lib/preloadable";

/**
 * The course player: nearly every visit to the learner's dashboard ends in a course, so its
 * code is fetched once the learner's shell has rendered and the browser is idle
 * (learner-layout.tsx). The click on a course then opens the player at once instead of its
 * loading state.
 */
export const coursePlayerPage = preloadable(() =>
  import("./routes/course-player").then((m) => m.CoursePlayerRoute),
);
