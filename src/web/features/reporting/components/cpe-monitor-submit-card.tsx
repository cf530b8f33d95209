import {
  type CpeMonitorSubmitResult,
  type RegulatorOverview,
  reportGenerateBodySchema,
} from "@contract";
import { SendIcon } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { getErrorMessage } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { plural } from "../../../lib/format";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useSubmitCpeMonitor } from "../api/submit-cpe-monitor";
import { COURSE_RANGE_FORM_CLASS, CourseRangeFields, useCourseRange } from "./course-range-fields";

/**
 * CPE Monitor takes completions by its web service, not by file: the course's completions in
 * the range that CPE Monitor has not accepted are sent one by one, and each answer shows in
 * the claims below. Those the service could not take wait and are sent again by themselves.
 */
export function CpeMonitorSubmitCard({
  overview,
  course,
  onCourse,
}: {
  overview: RegulatorOverview;
  course: string;
  onCourse: (id: string) => void;
}) {
  const submit = useSubmitCpeMonitor();
  const dates = useDates();
  const base = useId();
  const range = useCourseRange();
  const [result, setResult] = useState<CpeMonitorSubmitResult | null>(null);
  const single = useSingleSubmit(result);
  const [error, setError] = useState<string | null>(null);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Submit to CPE Monitor</CardTitle>
        <CardDescription>
          Sends each completion of the course in the range that CPE Monitor has not accepted, by its
          web service. Its answer to each shows in the claims below.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <form
          className={COURSE_RANGE_FORM_CLASS}
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            const body = range.checked(reportGenerateBodySchema, {
              courseId: course,
              from: range.from,
              to: range.to,
            });
            if (!body) return;
            void single((idempotencyKey) =>
              submit.mutateAsync({ ...body, idempotencyKey }).then(setResult, (err: unknown) => {
                setResult(null);
                setError(getErrorMessage(err) ?? "The completions could not be sent.");
              }),
            );
          }}
        >
          <CourseRangeFields
            base={base}
            overview={overview}
            course={course}
            onCourse={onCourse}
            range={range}
          />
          <div className="sm:col-span-3 lg:col-span-1 lg:mt-6">
            <Button type="submit" disabled={!course || submit.isPending}>
              {submit.isPending ? <Spinner /> : <SendIcon aria-hidden="true" />}
              Submit to CPE Monitor
            </Button>
          </div>
        </form>
        {error ? (
          <p role="alert" className="text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
        {result ? (
          <div
            role="status"
            className="grid gap-2 rounded-xl border border-zinc-200 bg-zinc-50 p-4 text-sm"
            data-testid="cpe-monitor-result"
          >
            <p className="font-medium text-zinc-900">
              {result.accepted} accepted · {result.refused} refused · {result.waiting} waiting
            </p>
            {result.notSent.length ? (
              <div className="grid gap-1">
                <p className="text-amber-900">{plural(result.notSent.length, "claim")} not sent:</p>
                <ul className="grid gap-1">
                  {result.notSent.map((r) => (
                    <li key={r.claimKey} className="text-zinc-800">
                      <span className="font-medium">{r.learnerName}</span>{" "}
                      <span className="text-zinc-600">(completed {dates.day(r.completedOn)})</span>:{" "}
                      {r.reason}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
