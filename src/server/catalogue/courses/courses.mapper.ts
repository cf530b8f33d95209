import type { Course, CreditType, Module, PackageSummary } from "../../../contract";
import type { CourseRow, ModuleRow } from "./courses.table";

/** Package summaries by package id, for the package modules among the rows mapped. */
export type PackageSummaries = ReadonlyMap<string, PackageSummary>;

export function toModule(row: ModuleRow, packages?: PackageSummaries): Module {
  const summary = row.packageId ? packages?.get(row.packageId) : undefined;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    duration: row.duration,
    // A package module has no video: the spec's field stays a string, empty.
    videoUrl: row.videoUrl ?? "",
    videoSeconds: row.videoSeconds,
    kind: row.kind,
    ...(summary ? { package: summary } : {}),
  };
}

export function toCourse(
  row: CourseRow,
  moduleRows: ModuleRow[],
  creditTypes: CreditType[] = [],
  packages?: PackageSummaries,
): Course {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    duration: row.duration,
    thumbnail: row.thumbnail,
    createdBy: row.createdBy,
    modules: moduleRows.map((m) => toModule(m, packages)),
    isPublished: row.isPublished,
    completionPolicy: row.completionPolicy,
    minWatchPercent: row.minWatchPercent,
    minSeatSeconds: row.minSeatSeconds,
    creditTypes,
    createdAt: row.createdAt.toISOString(),
  };
}
