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
import { Field } from "../../../components/ui/field";
import { NativeSelect } from "../../../components/ui/native-select";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useSingleSubmit } from "../../../lib/use-single-submit";
import { useGenerateParsActivityFile } from "../api/generate-pars-activity-file";
import { useGenerateReportFile } from "../api/generate-report-file";
import { DateField } from "./date-field";
import { GeneratedFile } from "./generated-file";

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

type DayErrors = { from?: string | undefined; to?: string | undefined };

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
  const today = new Date();
  const [from, setFrom] = useState(dayOf(new Date(today.getTime() - 365 * 86_400_000)));
  const [to, setTo] = useState(dayOf(today));
  const [result, setResult] = useState<ReportFile | null>(null);
  // One key until a file is made: a double click makes one file, the next range a new one.
  const single = useSingleSubmit(result?.id);
  const [error, setError] = useState<string | null>(null);
  const [dayErrors, setDayErrors] = useState<DayErrors>({});
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
      if (day) setDayErrors({ [day]: getErrorMessage(err) });
      else setError(getErrorMessage(err) ?? "The file could not be generated.");
    },
  };

  /** The body if the contract's rules take it; otherwise each refused day's message shows. */
  function checked<T>(schema: z.ZodType<T>, body: unknown): T | null {
    setError(null);
    const parsed = schema.safeParse(body);
    if (parsed.success) {
      setDayErrors({});
      return parsed.data;
    }
    const errors: DayErrors = {};
    for (const issue of parsed.error.issues) {
      const day = issue.path[0];
      if ((day === "from" || day === "to") && !errors[day]) errors[day] = issue.message;
    }
    setDayErrors(errors);
    return null;
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
          className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)] lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-start"
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
          <Field id={`${base}-course`} label="Course">
            <NativeSelect
              id={`${base}-course`}
              value={course}
              onChange={(e) => onCourse(e.target.value)}
            >
              {overview.courses.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <DateField
            id={`${base}-from`}
            label="Completed from"
            value={from}
            onChange={setFrom}
            error={dayErrors.from}
          />
          <DateField
            id={`${base}-to`}
            label="Completed to"
            value={to}
            onChange={setTo}
            error={dayErrors.to}
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
