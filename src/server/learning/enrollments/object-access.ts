import { isModuleUnlocked } from "../../../contract";
import type { CoursesService } from "../../catalogue";
import type { ResolvedSession } from "../../people";
import type { ObjectAccess, ObjectRef } from "../../platform";
import type { EnrollmentsService } from "./enrollments.service";

/**
 * Who may read an uploaded file (ARCHITECTURE section 3): administrators; any signed-in
 * user for the organisation's logo and the thumbnail of a published course; a learner for a module's video once
 * enrolled in its published course and the module is unlocked for them. A package's `.zip`
 * is the administrators' alone.
 */
export function createObjectAccess(deps: {
  courses: CoursesService;
  enrollments: EnrollmentsService;
}) {
  return async function access(session: ResolvedSession, object: ObjectRef): Promise<ObjectAccess> {
    if (session.user.role === "admin") return "allow";
    // The organisation's logo is printed on public verification pages.
    if (object.kind === "logo") return "allow";
    // Learners play a package's unpacked files, never download the uploaded archive.
    if (object.kind === "package") return "deny";
    const path = `/objects/uploads/${object.id}`;
    if (object.kind === "thumbnail") {
      const owners = await deps.courses.coursesWithThumbnail(path);
      return owners.some((c) => c.isPublished) ? "allow" : "deny";
    }
    let locked = false;
    for (const module of await deps.courses.modulesWithVideo(path)) {
      const course = await deps.courses.findRow(module.courseId);
      if (!course?.isPublished) continue;
      const completed = await deps.enrollments.completedModules(session.user.id, course.id);
      if (!completed) continue;
      const order = await deps.courses.moduleIds(course.id);
      if (isModuleUnlocked(order, module.id, completed)) return "allow";
      locked = true;
    }
    return locked ? "locked" : "deny";
  };
}
