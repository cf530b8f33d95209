import { REGULATOR_NAMES, type RegulatorOverview, type ReportFile } from "@contract";
import { FileOutputIcon, FileSpreadsheetIcon } from "lucide-react";
import { useId, useState } from "react";
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
import { getErrorMessage } from "../../../lib/api-client";
import { useGenerateParsActivityFile } from "../api/generate-pars-activity-file";
import { useGenerateReportFile } from "../api/generate-report-file";
import { DateField } from "./date-field";
import { GeneratedFile } from "./generated-file";

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

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
  const [error, setError] = useState<string | null>(null);
  const pending = generate.isPending || generateActivity.isPending;
  const callbacks = {
    onSuccess: (file: ReportFile) => {
      setResult(file);
      toast({ title: "File generated", description: file.fileName });
    },
    onError: (err: Error) => {
      setResult(null);
      setError(getErrorMessage(err) ?? "The file could not be generated.");
    },
  };

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
          className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)] lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            generate.mutate({ regulator, body: { courseId: course, from, to } }, callbacks);
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
          <DateField id={`${base}-from`} label="Completed from" value={from} onChange={setFrom} />
          <DateField id={`${base}-to`} label="Completed to" value={to} onChange={setTo} />
          <div className="flex flex-wrap gap-2 sm:col-span-3 lg:col-span-1">
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
                  setError(null);
                  generateActivity.mutate({ courseId: course, from, to }, callbacks);
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
