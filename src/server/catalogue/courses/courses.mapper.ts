import type { Course, CreditType, Module } from "../../../contract";
import type { CourseRow, ModuleRow } from "./courses.table";

export function toModule(row: ModuleRow): Module {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    duration: row.duration,
    videoUrl: row.videoUrl,
    videoSeconds: row.videoSeconds,
  };
}

export function toCourse(
  row: CourseRow,
  moduleRows: ModuleRow[],
  creditTypes: CreditType[] = [],
): Course {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    duration: row.duration,
    thumbnail: row.thumbnail,
    createdBy: row.createdBy,
    modules: moduleRows.map(toModule),
    isPublished: row.isPublished,
    completionPolicy: row.completionPolicy,
    minWatchPercent: row.minWatchPercent,
    minSeatSeconds: row.minSeatSeconds,
    creditTypes,
    createdAt: row.createdAt.toISOString(),
  };
}
