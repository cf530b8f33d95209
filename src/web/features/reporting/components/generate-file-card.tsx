import {
  parsActivityFileBodySchema,
  REGULATOR_NAMES,
  type RegulatorOverview,
  type ReportFile,
  reportGenerateBodySchema,
} from "@contract";
import { FileOutputIcon, FileSpreadsheetIcon } from "lucide-react";
import { useId, useState } from "react";
import type { z } from "zod";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useGenerateParsActivityFile } from "../api/generate-pars-activity-file";
import { useGenerateReportFile } from "../api/generate-report-file";
import { COURSE_RANGE_FORM_CLASS, CourseRangeFields, useCourseRange } from "./course-range-fields";
import { GeneratedFile } from "./generated-file";

/**
 * A new file of one course and range of completion days: the learners' completions not yet
 * reported and, for PARS, the course's activity record with its learners counted over the
 * range.
 */
export function GenerateFileCard({
  overview,
  course,
  onCourse,
}: {
  overview: RegulatorOverview;
  course: string;
  onCourse: (id: string) => void;
}) {
  const { regulator } = overview;
  const generate = useGenerateReportFile();
  const generateActivity = useGenerateParsActivityFile();
  const base = useId();
  const range = useCourseRange();
  const { from, to } = range;
  const [result, setResult] = useState<ReportFile | null>(null);
  // One key until a file is made: a double click makes one file, the next range a new one.
  const single = useSingleSubmit(result?.id);
  const [error, setError] = useState<string | null>(null);
  const pending = generate.isPending || generateActivity.isPending;
  const callbacks = {
    onSuccess: (file: ReportFile) => {
      setResult(file);
      toast({ title: "File generated", description: file.fileName });
    },
    onError: (err: Error) => {
      setResult(null);
      // A refused day is said under its field, as the form's own check says it.
      const day = isApiError(err) && (err.path === "from" || err.path === "to") ? err.path : null;
      if (day) range.setDayErrors({ [day]: getErrorMessage(err) });
      else setError(getErrorMessage(err) ?? "The file could not be generated.");
    },
  };

  /** The body if the contract's rules take it; otherwise each refused day's message shows. */
  function checked<T>(schema: z.ZodType<T>, body: unknown): T | null {
    setError(null);
    return range.checked(schema, body);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">New file</CardTitle>
        <CardDescription>
          One file per course and range of completion dates, in {REGULATOR_NAMES[regulator]}'s
          upload format. It holds only claims not yet reported, or changed since.
          {regulator === "pars"
            ? " The activity file holds the course's activity record, its learners counted over the range."
            : ""}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className={COURSE_RANGE_FORM_CLASS}
          onSubmit={(e) => {
            e.preventDefault();
            const body = checked(reportGenerateBodySchema, { courseId: course, from, to });
            if (body) {
              void single((idempotencyKey) =>
                generate
                  .mutateAsync({ regulator, body, idempotencyKey }, callbacks)
                  // The refusal is shown by onError above.
                  .catch(() => undefined),
              );
            }
          }}
        >
          <CourseRangeFields
            base={base}
            overview={overview}
            course={course}
            onCourse={onCourse}
            range={range}
          />
          {/* Level with the inputs, below their labels, whatever a day's message adds under it. */}
          <div className="flex flex-wrap gap-2 sm:col-span-3 lg:col-span-1 lg:mt-6">
            <Button type="submit" disabled={!course || pending}>
              {generate.isPending ? <Spinner /> : <FileOutputIcon aria-hidden="true" />}
              Generate file
            </Button>
            {regulator === "pars" ? (
              <Button
                type="button"
                variant="outline"
                disabled={!course || pending}
                onClick={() => {
                  const body = checked(parsActivityFileBodySchema, { courseId: course, from, to });
                  if (body) {
                    void single((idempotencyKey) =>
                      generateActivity
                        .mutateAsync({ ...body, idempotencyKey }, callbacks)
                        // The refusal is handled by the callbacks.
                        .catch(() => undefined),
                    );
                  }
                }}
              >
                {generateActivity.isPending ? (
                  <Spinner />
                ) : (
                  <FileSpreadsheetIcon aria-hidden="true" />
                )}
                Generate activity file
              </Button>
            ) : null}
          </div>
        </form>
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
        {result ? <GeneratedFile file={result} /> : null}
      </CardContent>
    </Card>
  );
}
