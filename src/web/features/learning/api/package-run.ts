import {
  type PackageAttemptStatus,
  type PackageLaunch,
  type PackageSeatBody,
  packageAttemptStatusSchema,
  packageLaunchSchema,
  type ScormCommitBody,
  type ScormItemAnswer,
  scormItemAnswerSchema,
} from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

const runPath = (courseId: string, moduleId: string) =>
  `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId)}/package`;

const packageLaunchQueryKey = (courseId: string, moduleId: string) =>
  ["/api/courses", courseId, "modules", moduleId, "package"] as const;

/**
 * POST .../package/launch: the learner's open attempt at the module's package (opened the
 * first time), its items, where to resume and where the content is served. Asking again
 * answers the same attempt, so it is read like a query.
 */
async function launchPackage(courseId: string, moduleId: string): Promise<PackageLaunch> {
  return apiJson(packageLaunchSchema, "POST", `${runPath(courseId, moduleId)}/launch`);
}

export function usePackageLaunch(courseId: string, moduleId: string) {
  return useQuery(
    queryOptions({
      queryKey: packageLaunchQueryKey(courseId, moduleId),
      queryFn: () => launchPackage(courseId, moduleId),
      // The frame keeps its own state: reading the launch again would restart the content.
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
      gcTime: 0,
    }),
  );
}

/**
 * GET .../package/items/:itemId: a SCORM item's address and the data model it starts with,
 * with the attempt's status.
 */
export async function getScormItem(
  courseId: string,
  moduleId: string,
  itemId: string,
): Promise<ScormItemAnswer> {
  return apiJson(
    scormItemAnswerSchema,
    "GET",
    `${runPath(courseId, moduleId)}/items/${encodeURIComponent(itemId)}`,
  );
}

/** PUT .../package/items/:itemId: what the SCO committed; answers the attempt's status. */
export async function commitScormItem(
  courseId: string,
  moduleId: string,
  itemId: string,
  body: ScormCommitBody,
  options: { keepalive?: boolean } = {},
): Promise<PackageAttemptStatus> {
  return apiJson(
    packageAttemptStatusSchema,
    "PUT",
    `${runPath(courseId, moduleId)}/items/${encodeURIComponent(itemId)}`,
    body,
    { keepalive: options.keepalive },
  );
}

/** POST .../package/seat: a beat while the content is open (seat time). */
export async function sendSeatBeat(
  courseId: string,
  moduleId: string,
  body: PackageSeatBody,
  options: { keepalive?: boolean } = {},
): Promise<PackageAttemptStatus> {
  return apiJson(packageAttemptStatusSchema, "POST", `${runPath(courseId, moduleId)}/seat`, body, {
    keepalive: options.keepalive,
  });
}
