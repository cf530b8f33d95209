import type { Course } from "@contract";

/** Title or category contains the query, ignoring case and surrounding spaces. */
export function matchesCourse(course: Pick<Course, "title" | "category">, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return course.title.toLowerCase().includes(q) || course.category.toLowerCase().includes(q);
}

/** Average course length in hours, one decimal at most ("6.5"); "0" without courses. */
export function averageHours(courses: Pick<Course, "duration">[]): string {
  if (courses.length === 0) return "0";
  const average = courses.reduce((sum, c) => sum + c.duration, 0) / courses.length;
  return String(Math.round(average * 10) / 10);
}

/** "1 h 25 min", "2 h", "45 min". */
export function formatMinutes(total: number): string {
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  if (hours === 0) return `${minutes} min`;
  return minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`;
}
