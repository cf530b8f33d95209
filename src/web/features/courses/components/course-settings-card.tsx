import type { Course } from "@contract";
import { formatWatchSeconds, offeredCreditText } from "@contract";
import { SlidersHorizontalIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../../components/ui/card";
import { CourseSettingsDialog } from "./course-settings-dialog";

/**
 * The course's completion rule, with an Edit action, and the credit it offers (set, with
 * everything a certificate prints, in the Accreditation section's Credit).
 */
export function CourseSettingsCard({ course }: { course: Course }) {
  const [open, setOpen] = useState(false);
  const verified = course.completionPolicy === "verified";
  const rows: [string, string][] = [
    ["Completion", verified ? "Verified watching" : "Manual"],
    ...(verified
      ? ([
          ["Minimum watched", `${course.minWatchPercent}%`],
          [
            "Minimum seat time",
            course.minSeatSeconds ? formatWatchSeconds(course.minSeatSeconds) : "None",
          ],
        ] as [string, string][])
      : []),
    [
      "Credit",
      course.creditTypes.length ? offeredCreditText(course.creditTypes) : "None (set in Credit)",
    ],
  ];
  return (
    <Card data-testid="course-settings-card">
      <CardHeader className="flex flex-row items-center justify-between gap-3 space-y-0">
        <CardTitle>Completion</CardTitle>
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          <SlidersHorizontalIcon aria-hidden="true" />
          Edit settings
        </Button>
      </CardHeader>
      <CardContent className="pt-4">
        <dl className="grid grid-cols-1 gap-2.5 text-sm">
          {rows.map(([label, value]) => (
            <div key={label} className="flex items-start justify-between gap-4">
              <dt className="shrink-0 text-zinc-600">{label}</dt>
              <dd className="min-w-0 text-right font-medium break-words text-zinc-900">{value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
      <CourseSettingsDialog course={course} open={open} onOpenChange={setOpen} />
    </Card>
  );
}
