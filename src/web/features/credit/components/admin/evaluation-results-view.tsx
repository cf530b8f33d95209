import { type EvaluationResults, LIKERT_LABELS } from "@contract";
import { ClipboardListIcon, DownloadIcon, MessageSquareTextIcon } from "lucide-react";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../../../components/ui/card";
import { EmptyState } from "../../../../components/ui/empty-state";
import { LoadError } from "../../../../components/ui/load-error";
import { ScrollRegion } from "../../../../components/ui/scroll-region";
import { Skeleton } from "../../../../components/ui/skeleton";
import { getErrorMessage } from "../../../../lib/api-client";
import {
  evaluationResultsCsvUrl,
  useEvaluationResults,
} from "../../api/admin-get-evaluation-results";
import { useActivity } from "../../api/get-activity";
import { EVALUATION_KIND_LABELS } from "./admin-labels";

type ResultItem = EvaluationResults["items"][number];

/** Comments past this many scroll inside their card, so one long list never buries the rest. */
const COMMENTS_BEFORE_SCROLL = 6;

/** The CSV export of the results: one row per item and rating, then the comments. */
export function EvaluationResultsDownload({ courseId }: { courseId: string }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={evaluationResultsCsvUrl(courseId)} download data-testid="evaluation-csv">
        <DownloadIcon aria-hidden="true" />
        Download CSV
      </a>
    </Button>
  );
}

/** Every item of the course evaluation with its answers: ratings as bars, comments as a list. */
export function EvaluationResultsView({ courseId }: { courseId: string }) {
  const results = useEvaluationResults(courseId);
  const activity = useActivity(courseId);
  if (results.isError) {
    return (
      <LoadError
        message={getErrorMessage(results.error) ?? "The evaluation results could not be loaded."}
        onRetry={() => void results.refetch()}
      />
    );
  }
  if (results.isPending) {
    return (
      <div className="grid gap-6" aria-hidden="true" data-testid="evaluation-results-loading">
        <Skeleton className="h-56 rounded-2xl" />
        <Skeleton className="h-56 rounded-2xl" />
      </div>
    );
  }
  if (results.data.responses === 0) {
    const notAsked = activity.data ? !activity.data.evaluationRequired : false;
    return (
      <EmptyState
        icon={<ClipboardListIcon />}
        title="No evaluations yet"
        description={
          notAsked
            ? "This course does not ask learners for an evaluation: require it in the course's Edit activity."
            : "Learners' answers appear here, without their names, once they submit the evaluation."
        }
      />
    );
  }
  return (
    <ol className="grid min-w-0 grid-cols-1 gap-6" aria-label="Evaluation items">
      {results.data.items.map((item, index) => (
        <li key={item.id} className="min-w-0">
          <ItemCard item={item} number={index + 1} responses={results.data.responses} />
        </li>
      ))}
    </ol>
  );
}

function ItemCard({
  item,
  number,
  responses,
}: {
  item: ResultItem;
  number: number;
  responses: number;
}) {
  const titleId = `evaluation-item-${item.id}`;
  return (
    <Card className="min-w-0" data-testid="evaluation-result-item" data-kind={item.kind}>
      <CardHeader className="grid gap-2 pb-4">
        <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
          <span className="font-medium text-zinc-700">Item {number}</span>
          <Badge variant={item.kind === "likert" ? "default" : "secondary"}>
            {EVALUATION_KIND_LABELS[item.kind]}
          </Badge>
          <span>
            Answered by {item.answered} of {responses}
          </span>
        </div>
        <CardTitle id={titleId} className="text-[15px] leading-snug break-words">
          {item.text}
        </CardTitle>
      </CardHeader>
      <CardContent className="pt-0">
        {item.kind === "likert" ? (
          <LikertResult item={item} titleId={titleId} />
        ) : (
          <Comments item={item} titleId={titleId} />
        )}
      </CardContent>
    </Card>
  );
}

/** The mean, then one bar per rating with its count and share written out beside it. */
function LikertResult({ item, titleId }: { item: ResultItem; titleId: string }) {
  if (item.answered === 0 || item.mean === null) {
    return <p className="text-sm text-zinc-600">No ratings yet.</p>;
  }
  return (
    <div className="grid gap-4 sm:grid-cols-[9rem_minmax(0,1fr)] sm:gap-8">
      <p className="flex items-baseline gap-1.5 sm:flex-col sm:gap-0.5">
        <span
          className="text-3xl font-semibold tracking-tight text-zinc-950 tabular-nums"
          data-testid="likert-mean"
        >
          {item.mean.toFixed(1)}
        </span>
        <span className="text-sm text-zinc-600">out of 5 on average</span>
      </p>
      <ul className="grid min-w-0 gap-2" aria-labelledby={titleId} data-testid="likert-bars">
        {LIKERT_LABELS.map((label, i) => {
          const count = item.distribution[i] ?? 0;
          const share = Math.round((count / item.answered) * 100);
          return (
            <li
              key={label}
              className="grid grid-cols-[minmax(0,7.5rem)_minmax(0,1fr)_4.5rem] items-center gap-3 text-sm sm:grid-cols-[9.5rem_minmax(0,1fr)_5.5rem]"
            >
              <span className="min-w-0 text-zinc-700">
                <span className="text-zinc-500 tabular-nums">{i + 1}</span> {label}
              </span>
              <span className="h-2.5 overflow-hidden rounded-full bg-zinc-100" aria-hidden="true">
                <span
                  className="block h-full rounded-full bg-indigo-600"
                  style={{ width: `${share}%` }}
                />
              </span>
              <span className="text-right text-zinc-900 tabular-nums">
                {count} <span className="text-xs text-zinc-600">({share}%)</span>
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Comments({ item, titleId }: { item: ResultItem; titleId: string }) {
  if (item.comments.length === 0) {
    return (
      <p className="flex items-center gap-2 text-sm text-zinc-600">
        <MessageSquareTextIcon className="size-4 text-zinc-400" aria-hidden="true" />
        No comments yet.
      </p>
    );
  }
  const list = (
    <ul className="grid gap-2" aria-labelledby={titleId} data-testid="evaluation-comments">
      {item.comments.map((comment, i) => (
        <li
          // Comments carry no id and may repeat word for word; their place is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: the list never reorders.
          key={i}
          className="rounded-lg bg-zinc-50 px-3 py-2.5 text-sm leading-relaxed break-words whitespace-pre-line text-zinc-800"
        >
          {comment}
        </li>
      ))}
    </ul>
  );
  return item.comments.length > COMMENTS_BEFORE_SCROLL ? (
    <ScrollRegion
      aria-label={`Comments on “${item.text}” (${item.comments.length})`}
      className="max-h-96 overflow-y-auto rounded-xl border border-zinc-100 p-2"
    >
      {list}
    </ScrollRegion>
  ) : (
    list
  );
}
