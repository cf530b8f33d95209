import type { Course, ExamSettings, PublishCheck } from "@contract";
import { BarChart3Icon, CircleAlertIcon, OctagonXIcon, SlidersHorizontalIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../../../components/ui/card";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { loadFailureHint } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { cn } from "../../../../lib/utils";
import { REVEAL_LABELS } from "../../admin-labels";
import { useExamSettings } from "../../api/get-exam-settings";
import { ExamSettingsDialog } from "./exam-settings-dialog";
import { QuestionBank } from "./question-bank";

/**
 * The course page's assessment area: the final exam's settings, what publishing will say
 * about them, and the question bank.
 */
export function CourseAssessment({ course }: { course: Course }) {
  // The NASBA checks follow the course's CPE credit: a change of its credit types refetches.
  const creditKey = course.creditTypes
    .map((t) => `${t.name}|${t.amount}|${t.accreditingBody ?? ""}`)
    .join(";");
  const settings = useExamSettings(course.id, creditKey);
  return (
    <section aria-labelledby="assessment-title" className="grid grid-cols-1 gap-6">
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3 pb-4">
          <div className="grid grid-cols-1 gap-1">
            <CardTitle id="assessment-title">Assessment</CardTitle>
            <p className="text-sm text-zinc-600">
              Review questions under modules, and a final exam drawn from a pool.
            </p>
          </div>
          {settings.data ? <SettingsActions course={course} settings={settings.data} /> : null}
        </CardHeader>
        <CardContent className="pt-0">
          {settings.isPending ? (
            <Skeleton className="h-28 rounded-xl" />
          ) : settings.isError ? (
            <LoadError
              message={loadFailureHint(
                settings.error,
                "The assessment settings could not be loaded.",
              )}
              onRetry={() => void settings.refetch()}
            />
          ) : (
            <div className="grid grid-cols-1 gap-4">
              <SettingsSummary settings={settings.data} />
              <PublishChecks checks={settings.data.checks} />
            </div>
          )}
        </CardContent>
      </Card>
      <QuestionBank course={course} />
    </section>
  );
}

function SettingsActions({ course, settings }: { course: Course; settings: ExamSettings }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button asChild variant="outline" size="sm">
        <Link to={`/admin/courses/${course.id}/exam-results`}>
          <BarChart3Icon aria-hidden="true" />
          Exam results
        </Link>
      </Button>
      <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
        <SlidersHorizontalIcon aria-hidden="true" />
        Exam settings
      </Button>
      <ExamSettingsDialog
        courseId={course.id}
        settings={settings}
        open={open}
        onOpenChange={setOpen}
      />
    </div>
  );
}

function SettingsSummary({ settings }: { settings: ExamSettings }) {
  const rows: [string, string][] = settings.enabled
    ? [
        ["Final exam", "On"],
        ["Questions per attempt", `${settings.questionCount} of ${settings.finalPoolSize}`],
        ["Pass mark", `${settings.passMark}%`],
        ["Attempts", settings.maxAttempts === null ? "Unlimited" : String(settings.maxAttempts)],
        [
          "Time limit",
          settings.timeLimitMinutes === null ? "None" : plural(settings.timeLimitMinutes, "minute"),
        ],
        ["Answers shown", REVEAL_LABELS[settings.revealAnswers]],
        ["Review questions", settings.reviewRequired ? "Required" : "Optional"],
      ]
    : [
        ["Final exam", "Off"],
        ["Final pool", plural(settings.finalPoolSize, "question")],
        ["Review questions", settings.reviewRequired ? "Required" : "Optional"],
      ];
  return (
    <dl
      data-testid="exam-settings-summary"
      className="grid grid-cols-1 gap-x-8 gap-y-2.5 text-sm sm:grid-cols-2"
    >
      {rows.map(([label, value]) => (
        <div key={label} className="flex items-center justify-between gap-4">
          <dt className="text-zinc-600">{label}</dt>
          <dd className="font-medium text-zinc-900 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What publishing will say: a blocking problem stops it, an accreditor's floor only warns. */
function PublishChecks({ checks }: { checks: PublishCheck[] }) {
  if (!checks.length) return null;
  return (
    <ul data-testid="publish-checks" className="grid grid-cols-1 gap-2" aria-label="Publish checks">
      {checks.map((check) => {
        const blocking = check.severity === "blocking";
        const Icon = blocking ? OctagonXIcon : CircleAlertIcon;
        return (
          <li
            key={`${check.key}-${check.severity}`}
            data-severity={check.severity}
            className={cn(
              "flex items-start gap-2.5 rounded-lg border px-3 py-2.5 text-sm",
              blocking
                ? "border-red-200 bg-red-50 text-red-900"
                : "border-amber-200 bg-amber-50 text-amber-950",
            )}
          >
            <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              <span className="font-medium">{blocking ? "Blocks publishing: " : "Warning: "}</span>
              {check.message}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
