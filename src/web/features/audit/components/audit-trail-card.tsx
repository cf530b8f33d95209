import type { Course } from "@contract";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import type { AuditFilters as Filters } from "../api/get-audit-events";
import { AuditEventsList } from "./audit-events-list";
import { AuditFilters, invalidAuditRange } from "./audit-filters";

/**
 * The audit trail on screen: who did what, to which course and for which learner, newest
 * first, with its filters and the CSV export of the same events beside them.
 */
export function AuditTrailCard({
  filters,
  onFiltersChange,
  courses,
}: {
  filters: Filters;
  onFiltersChange: (filters: Filters) => void;
  courses: Course[] | undefined;
}) {
  const filtered = Object.values(filters).some(Boolean);
  return (
    <Card role="region" aria-labelledby="audit-events-title" className="min-w-0">
      <CardHeader>
        <CardTitle id="audit-events-title">Events</CardTitle>
        <CardDescription>
          Every change to a course, its modules, its exam and its credit settings, and every step of
          a learner's credit, with who did it and when. The export holds the same events with their
          hashes.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <AuditFilters filters={filters} onChange={onFiltersChange} courses={courses} />
        {invalidAuditRange(filters) ? null : (
          <AuditEventsList
            filters={filters}
            filtered={filtered}
            onClear={() => onFiltersChange({})}
          />
        )}
      </CardContent>
    </Card>
  );
}
