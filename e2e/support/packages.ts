import type { APIRequestContext } from "@playwright/test";
import type { Module } from "../../src/contract";
import { expect, uploadFile } from "./fixtures";

/** The peers' packages, read where they are (outside content, never copied in). */
export const GOLF = "../shared/peers/scorm-golf";
export const CMI5 = "../shared/peers/cmi5-packages";

/**
 * Adds a SCORM or cmi5 module to a course through the upload flow and the modules API, as
 * the Add Module dialog does. `made` gives a package the test built instead of a file's.
 */
export async function addPackageModule(
  api: APIRequestContext,
  courseId: string,
  input: { kind: "scorm" | "cmi5"; file: string; title?: string; made?: Buffer },
): Promise<Module> {
  const packagePath = await uploadFile(api, "package", input.file, input.made);
  const added = await api.post(`/api/courses/${courseId}/modules`, {
    data: {
      id: `module_${Date.now()}${Math.floor(Math.random() * 1000)}`,
      title: input.title ?? "Package module",
      description: "",
      duration: 10,
      kind: input.kind,
      packagePath,
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  return (await added.json()) as Module;
}
