import type { ExamResults } from "@contract";
import {
  DownloadIcon,
  GaugeIcon,
  ListOrderedIcon,
  PlusCircleIcon,
  TrophyIcon,
  UsersIcon,
} from "lucide-react";
import { EmailText } from "../../../../components/email-text";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader, CardTitle } from "../../../../components/ui/card";
import { LoadError } from "../../../../components/ui/load-error";
import { ScrollRegion } from "../../../../components/ui/scroll-region";
import { Skeleton } from "../../../../components/ui/skeleton";
import { StatCard } from "../../../../components/ui/stat-card";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage } from "../../../../lib/api-client";
import { useDates } from "../../../../lib/dates";
import { ASSESSMENT_TOASTS } from "../../admin-labels";
import { examResultsCsvUrl, useExamResults } from "../../api/get-exam-results";
import { useGrantExtraAttempt } from "../../api/grant-extra-attempt";

type LearnerResult = ExamResults["learners"][number];
type QuestionResult = ExamResults["questions"][number];

/** The CSV exports of the results, one per view. */
export function ExamResultsDownloads({ courseId }: { courseId: string }) {
  const links = [
    ["attempts", "Attempts CSV"],
    ["questions", "Questions CSV"],
    ["summary", "Summary CSV"],
  ] as const;
  return (
    <>
      {links.map(([view, label]) => (
        <Button key={view} asChild variant="outline" size="sm">
          <a href={examResultsCsvUrl(courseId, view)} download>
            <DownloadIcon aria-hidden="true" />
            {label}
          </a>
        </Button>
      ))}
    </>
  );
}

/** Summary figures, every learner's attempts, and how each question fared. */
export function ExamResultsView({ courseId }: { courseId: string }) {
  const results = useExamResults(courseId);
  if (results.isError) {
    return (
      <LoadError
        message={getErrorMessage(results.error) ?? "The exam results could not be loaded."}
        onRetry={() => void results.refetch()}
      />
    );
  }
  const summary = results.data?.summary;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-6">
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <StatCard
          label="Learners with an attempt"
          value={summary?.learners}
          icon={<UsersIcon />}
          tone="indigo"
        />
        <StatCard
          label="Pass rate"
          value={summary ? (summary.passRate === null ? "—" : `${summary.passRate}%`) : undefined}
          hint={summary ? `${summary.passed} passed` : undefined}
          icon={<TrophyIcon />}
          tone="emerald"
        />
        <StatCard
          label="Average score"
          value={
            summary
              ? summary.averageScore === null
                ? "—"
                : `${Math.round(summary.averageScore)}%`
              : undefined
          }
          hint={summary ? `${summary.attempts} graded attempts` : undefined}
          icon={<GaugeIcon />}
          tone="sky"
        />
        <StatCard
          label="Attempts to pass"
          value={
            summary
              ? summary.averageAttemptsToPass === null
                ? "—"
                : summary.averageAttemptsToPass.toFixed(1)
              : undefined
          }
          hint="On average"
          icon={<ListOrderedIcon />}
          tone="violet"
        />
      </div>
      {results.data ? (
        <>
          <LearnersCard courseId={courseId} learners={results.data.learners} />
          <ItemAnalysisCard questions={results.data.questions} />
        </>
      ) : (
        <div className="grid gap-6" aria-hidden="true">
          <Skeleton className="h-64 rounded-2xl" />
          <Skeleton className="h-64 rounded-2xl" />
        </div>
      )}
    </div>
  );
}

function LearnersCard({ courseId, learners }: { courseId: string; learners: LearnerResult[] }) {
  const dates = useDates();
  const grant = useGrantExtraAttempt();

  async function onGrant(learner: LearnerResult) {
    if (!learner.enrollmentId) return;
    try {
      await grant.mutateAsync({ courseId, enrollmentId: learner.enrollmentId });
      toast({ title: ASSESSMENT_TOASTS.attemptGranted, description: learner.name });
    } catch (error) {
      toast({
        variant: "destructive",
        title: ASSESSMENT_TOASTS.error,
        description: getErrorMessage(error) ?? "The attempt could not be granted.",
      });
    }
  }

  return (
    <Card className="min-w-0">
      <CardHeader className="pb-4">
        <CardTitle id="exam-learners-title">Learners</CardTitle>
      </CardHeader>
      {learners.length === 0 ? (
        <p className="px-5 pb-6 text-sm text-zinc-600 sm:px-6">
          No learner has taken the exam yet.
        </p>
      ) : (
        <ScrollRegion
          aria-labelledby="exam-learners-title"
          className="overflow-x-auto border-t border-zinc-100"
        >
          <table
            aria-labelledby="exam-learners-title"
            className="w-full min-w-[40rem] text-left text-sm"
          >
            <thead className="bg-zinc-50 text-xs text-zinc-600">
              <tr>
                <th scope="col" className="px-5 py-2.5 font-medium sm:px-6">
                  Learner
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Attempts
                </th>
                <th scope="col" className="px-3 py-2.5 text-right font-medium">
                  Best
                </th>
                <th scope="col" className="px-3 py-2.5 font-medium">
                  Status
                </th>
                <th scope="col" className="px-5 py-2.5 text-right font-medium sm:px-6">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {learners.map((learner) => (
                <tr
                  key={learner.enrollmentId ?? learner.email}
                  data-testid="exam-learner-row"
                  className="align-top"
                >
                  <td className="px-5 py-3 sm:px-6">
                    <p className="font-medium text-zinc-950">{learner.name}</p>
                    <p className="text-xs text-zinc-600">
                      <EmailText email={learner.email} />
                    </p>
                  </td>
                  <td className="px-3 py-3">
                    <ol
                      className="flex flex-wrap gap-1.5"
                      aria-label={`${learner.name}'s attempts`}
                    >
                      {learner.attempts.map((attempt) => (
                        <li key={attempt.id}>
                          <Badge
                            variant={
                              attempt.passed === null
                                ? "outline"
                                : attempt.passed
                                  ? "success"
                                  : "secondary"
                            }
                            title={`Attempt ${attempt.number}, started ${dates.date(attempt.startedAt)}`}
                          >
                            #{attempt.number}{" "}
                            {attempt.score === null ? "in progress" : `${attempt.score}%`}
                          </Badge>
                        </li>
                      ))}
                    </ol>
                  </td>
                  <td className="px-3 py-3 text-right font-medium text-zinc-900 tabular-nums">
                    {learner.bestScore === null ? "—" : `${learner.bestScore}%`}
                  </td>
                  <td className="px-3 py-3">
                    {learner.passed ? (
                      <Badge variant="success">Passed</Badge>
                    ) : learner.attemptsLeft === 0 ? (
                      <Badge variant="warning">No attempts left</Badge>
                    ) : (
                      <Badge variant="secondary">Not passed</Badge>
                    )}
                    {learner.extraAttempts ? (
                      <p className="mt-1 text-xs text-zinc-600">+{learner.extraAttempts} granted</p>
                    ) : null}
                  </td>
                  <td className="px-5 py-3 text-right sm:px-6">
                    {/* Offered once the learner is out of attempts (never on an unlimited exam). */}
                    {!learner.passed && learner.enrollmentId && learner.attemptsLeft === 0 ? (
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={grant.isPending}
                        aria-label={`Grant ${learner.name} another attempt`}
                        onClick={() => void onGrant(learner)}
                      >
                        <PlusCircleIcon aria-hidden="true" />
                        Grant another attempt
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}

/** Each question's share of right answers, hardest first: where the course or the item is weak. */
function ItemAnalysisCard({ questions }: { questions: QuestionResult[] }) {
  const drawn = questions
    .filter((q) => q.percentCorrect !== null)
    .sort((a, b) => (a.percentCorrect ?? 0) - (b.percentCorrect ?? 0));
  const never = questions.length - drawn.length;
  return (
    <Card className="min-w-0">
      <CardHeader className="grid gap-1 pb-4">
        <CardTitle id="item-analysis-title">Item analysis</CardTitle>
        <p className="text-sm text-zinc-600">
          Share of graded attempts that answered each question right, hardest first
          {never ? `; ${never} not drawn yet` : ""}.
        </p>
      </CardHeader>
      {drawn.length === 0 ? (
        <p className="px-5 pb-6 text-sm text-zinc-600 sm:px-6">No graded attempts yet.</p>
      ) : (
        <ScrollRegion
          aria-labelledby="item-analysis-title"
          className="overflow-x-auto border-t border-zinc-100"
        >
          <table
            aria-labelledby="item-analysis-title"
            className="w-full min-w-[34rem] text-left text-sm"
          >
            <thead className="bg-zinc-50 text-xs text-zinc-600">
              <tr>
                <th scope="col" className="px-5 py-2.5 font-medium sm:px-6">
                  Question
                </th>
                <th scope="col" className="px-3 py-2.5 text-right font-medium">
                  Drawn
                </th>
                <th scope="col" className="px-5 py-2.5 font-medium sm:px-6">
                  Answered right
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {drawn.map((q) => (
                <tr key={q.questionId} data-testid="item-row">
                  <td className="max-w-md px-5 py-3 break-words text-zinc-900 sm:px-6">{q.text}</td>
                  <td className="px-3 py-3 text-right text-zinc-700 tabular-nums">{q.presented}</td>
                  <td className="px-5 py-3 sm:px-6">
                    <div className="flex items-center gap-3">
                      <div
                        className="h-2 w-24 shrink-0 overflow-hidden rounded-full bg-zinc-100 sm:w-40"
                        aria-hidden="true"
                      >
                        <div
                          className={
                            (q.percentCorrect ?? 0) < 50
                              ? "h-full rounded-full bg-amber-500"
                              : "h-full rounded-full bg-emerald-600"
                          }
                          style={{ width: `${q.percentCorrect}%` }}
                        />
                      </div>
                      <span className="text-zinc-900 tabular-nums">
                        {q.percentCorrect}%{" "}
                        <span className="text-xs text-zinc-600">
                          ({q.answeredCorrectly} of {q.presented})
                        </span>
                      </span>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}
