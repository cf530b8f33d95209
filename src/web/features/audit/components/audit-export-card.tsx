import type { Course } from "@contract";
import { DownloadIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input, inputClassName } from "../../../components/ui/input";
import { auditExportUrl } from "../api/get-audit-events";

/**
 * Filters and the CSV download of the audit trail: by course, by a range of
 * days, and by learner when opened from a learner's record.
 */
export function AuditExportCard({
  courses,
  learner,
}: {
  courses: Course[] | undefined;
  learner?: { id: string; name?: string };
}) {
  const [courseId, setCourseId] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const invalidRange = Boolean(from && to && from > to);
  const href = auditExportUrl({ learnerId: learner?.id, courseId, from, to });

  return (
    <Card role="region" aria-labelledby="audit-export-title">
      <CardHeader>
        <CardTitle id="audit-export-title">Export the audit trail</CardTitle>
        <CardDescription>
          {learner
            ? `Events for ${learner.name ?? "this learner"}: enrollments, module and course completions, certificates, restrictions and deletion.`
            : "Enrollments, module and course completions, certificates, restrictions and deletions, with who did them and when. Each row carries its hash."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-4 sm:grid-cols-3">
          <Field id="audit-course" label="Course">
            <select
              id="audit-course"
              className={inputClassName}
              value={courseId}
              onChange={(e) => setCourseId(e.target.value)}
            >
              <option value="">All courses</option>
              {courses?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </Field>
          <Field id="audit-from" label="From">
            <Input
              id="audit-from"
              type="date"
              value={from}
              onChange={(e) => setFrom(e.target.value)}
            />
          </Field>
          <Field
            id="audit-to"
            label="To"
            error={invalidRange ? "The end date is before the start date." : undefined}
          >
            <Input
              id="audit-to"
              type="date"
              value={to}
              onChange={(e) => setTo(e.target.value)}
              {...fieldAria("audit-to", invalidRange)}
            />
          </Field>
        </div>
        <div>
          {invalidRange ? (
            <Button disabled>
              <DownloadIcon aria-hidden="true" />
              Export CSV
            </Button>
          ) : (
            <Button asChild>
              <a href={href} download data-testid="audit-export">
                <DownloadIcon aria-hidden="true" />
                Export CSV
              </a>
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
