import { type Course, QUESTION_KIND_LABELS, type Question, type QuestionPool } from "@contract";
import {
  ArrowDownIcon,
  ArrowUpIcon,
  EyeIcon,
  FileUpIcon,
  ListChecksIcon,
  type LucideIcon,
  PencilIcon,
  PlusIcon,
  Trash2Icon,
} from "lucide-react";
import { useState } from "react";
import { Badge } from "../../../../components/ui/badge";
import { Button } from "../../../../components/ui/button";
import { Card, CardHeader, CardTitle } from "../../../../components/ui/card";
import { useConfirm } from "../../../../components/ui/confirm-dialog";
import { LoadError } from "../../../../components/ui/load-error";
import { Skeleton } from "../../../../components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../../../components/ui/tabs";
import { SimpleTooltip } from "../../../../components/ui/tooltip";
import { toast } from "../../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../../lib/api-client";
import { plural } from "../../../../lib/format";
import { cn } from "../../../../lib/utils";
import { ASSESSMENT_TOASTS, POOL_LABELS } from "../../admin-labels";
import { useDeleteQuestion } from "../../api/delete-question";
import { useQuestions } from "../../api/get-questions";
import { useReorderQuestions } from "../../api/reorder-questions";
import { QuestionDialog } from "./question-dialog";
import { QuestionImportDialog } from "./question-import-dialog";
import { QuestionPreviewDialog } from "./question-preview-dialog";

type Editing = { question: Question | null; pool: QuestionPool; open: boolean };

/** The course's questions by pool, in the order learners meet them, with every action. */
export function QuestionBank({ course }: { course: Course }) {
  const questions = useQuestions(course.id);
  const [pool, setPool] = useState<QuestionPool>("final");
  // The edited question stays set while the dialog animates closed.
  const [editing, setEditing] = useState<Editing | null>(null);
  const [previewing, setPreviewing] = useState<Question | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const all = questions.data ?? [];
  const inPool = (p: QuestionPool) => all.filter((q) => q.pool === p);

  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3 pb-4">
        <div className="grid grid-cols-1 gap-1">
          <CardTitle id="question-bank-title">Questions</CardTitle>
          <p className="text-sm text-zinc-600">
            {questions.data
              ? `${plural(inPool("final").length, "final-exam question")} · ${plural(inPool("review").length, "review question")}`
              : "The final pool and each module's review questions."}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" size="sm" onClick={() => setImportOpen(true)}>
            <FileUpIcon aria-hidden="true" />
            Import CSV
          </Button>
          <Button size="sm" onClick={() => setEditing({ question: null, pool, open: true })}>
            <PlusIcon aria-hidden="true" />
            Add question
          </Button>
        </div>
      </CardHeader>
      {questions.isPending ? (
        <div className="grid gap-3 px-5 pb-6 sm:px-6" aria-hidden="true">
          <Skeleton className="h-9 w-64" />
          <Skeleton className="h-16" />
          <Skeleton className="h-16" />
        </div>
      ) : questions.isError ? (
        <LoadError
          className="mx-5 mb-5 sm:mx-6 sm:mb-6"
          message={loadFailureHint(questions.error, "The questions could not be loaded.")}
          onRetry={() => void questions.refetch()}
        />
      ) : (
        <Tabs
          value={pool}
          onValueChange={(value) => setPool(value as QuestionPool)}
          className="grid gap-0"
        >
          <div className="px-5 pb-3 sm:px-6">
            <TabsList aria-label="Question pool">
              {(["final", "review"] as const).map((p) => (
                <TabsTrigger key={p} value={p}>
                  {POOL_LABELS[p]} ({inPool(p).length})
                </TabsTrigger>
              ))}
            </TabsList>
          </div>
          {(["final", "review"] as const).map((p) => (
            <TabsContent key={p} value={p} className="mt-0">
              <PoolList
                course={course}
                pool={p}
                questions={inPool(p)}
                onAdd={() => setEditing({ question: null, pool: p, open: true })}
                onEdit={(question) => setEditing({ question, pool: p, open: true })}
                onPreview={setPreviewing}
              />
            </TabsContent>
          ))}
        </Tabs>
      )}
      {editing ? (
        <QuestionDialog
          course={course}
          question={editing.question}
          pool={editing.pool}
          open={editing.open}
          onOpenChange={(open) => setEditing({ ...editing, open })}
        />
      ) : null}
      <QuestionPreviewDialog
        course={course}
        question={previewing}
        onOpenChange={(open) => (open ? undefined : setPreviewing(null))}
      />
      <QuestionImportDialog course={course} open={importOpen} onOpenChange={setImportOpen} />
    </Card>
  );
}

function PoolList({
  course,
  pool,
  questions,
  onAdd,
  onEdit,
  onPreview,
}: {
  course: Course;
  pool: QuestionPool;
  questions: Question[];
  onAdd: () => void;
  onEdit: (question: Question) => void;
  onPreview: (question: Question) => void;
}) {
  const deleteQuestion = useDeleteQuestion();
  const [confirm, confirmDialog] = useConfirm();
  const reorder = useReorderQuestions();
  const moduleTitle = new Map(course.modules.map((m, i) => [m.id, `${i + 1}. ${m.title}`]));

  async function remove(question: Question) {
    const confirmed = await confirm({
      title: "Delete question?",
      message: `Delete this question? Past attempts keep their copy.\n\n${question.text}`,
      confirmLabel: "Delete question",
    });
    if (!confirmed) return;
    try {
      await deleteQuestion.mutateAsync({ courseId: course.id, questionId: question.id });
      toast({ title: ASSESSMENT_TOASTS.questionDeleted });
    } catch (error) {
      toast({
        variant: "destructive",
        title: ASSESSMENT_TOASTS.error,
        description: getErrorMessage(error) ?? "The question could not be deleted.",
      });
    }
  }

  async function move(index: number, by: -1 | 1) {
    const ids = questions.map((q) => q.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    try {
      await reorder.mutateAsync({ courseId: course.id, questionIds: ids });
    } catch (error) {
      toast({
        variant: "destructive",
        title: ASSESSMENT_TOASTS.error,
        description: getErrorMessage(error) ?? "The questions could not be reordered.",
      });
    }
  }

  if (!questions.length) {
    return (
      <div className="mx-5 mb-5 flex flex-col items-center rounded-xl border border-dashed border-zinc-300 px-6 py-10 text-center sm:mx-6 sm:mb-6">
        <span className="mb-3 flex size-11 items-center justify-center rounded-full bg-indigo-50 text-indigo-700">
          <ListChecksIcon className="size-5" aria-hidden="true" />
        </span>
        <p className="text-sm font-semibold text-zinc-900">
          {pool === "final" ? "No final-exam questions yet" : "No review questions yet"}
        </p>
        <p className="mt-1 max-w-sm text-sm text-zinc-600">
          {pool === "final"
            ? "Each attempt draws its questions at random from this pool."
            : "Review questions sit under a module's video, with feedback on every answer."}
        </p>
        <Button className="mt-4" size="sm" onClick={onAdd}>
          <PlusIcon aria-hidden="true" />
          Add question
        </Button>
      </div>
    );
  }

  return (
    <ol aria-label={`${POOL_LABELS[pool]} questions`} className="grid border-t border-zinc-100">
      {questions.map((question, index) => {
        const label = `question ${index + 1}`;
        return (
          <li
            key={question.id}
            data-testid="question-item"
            className="flex flex-col gap-3 border-b border-zinc-100 px-4 py-4 last:border-b-0 sm:flex-row sm:items-start sm:gap-4 sm:px-6"
          >
            <div className="flex min-w-0 flex-1 items-start gap-3">
              <span
                aria-hidden="true"
                className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full bg-zinc-100 text-xs font-semibold text-zinc-700 tabular-nums"
              >
                {index + 1}
              </span>
              <div className="grid min-w-0 gap-1.5">
                <p className="text-[15px] leading-snug font-medium break-words text-zinc-950">
                  <span className="sr-only">Question {index + 1}: </span>
                  {question.text}
                </p>
                <p className="flex flex-wrap items-center gap-1.5 text-xs text-zinc-600">
                  <Badge variant="secondary">{QUESTION_KIND_LABELS[question.kind]}</Badge>
                  <span>{plural(question.options.length, "option")}</span>
                  {question.moduleId ? (
                    <span className="truncate">· {moduleTitle.get(question.moduleId)}</span>
                  ) : null}
                </p>
              </div>
            </div>
            <div className="-my-1 flex shrink-0 flex-wrap items-center gap-0.5 self-end sm:self-start">
              <RowAction
                tip="Move up"
                label={`Move ${label} up`}
                icon={ArrowUpIcon}
                disabled={index === 0 || reorder.isPending}
                onClick={() => void move(index, -1)}
              />
              <RowAction
                tip="Move down"
                label={`Move ${label} down`}
                icon={ArrowDownIcon}
                disabled={index === questions.length - 1 || reorder.isPending}
                onClick={() => void move(index, 1)}
              />
              <RowAction
                tip="Preview"
                label={`Preview ${label}`}
                icon={EyeIcon}
                onClick={() => onPreview(question)}
              />
              <RowAction
                tip="Edit"
                label={`Edit ${label}`}
                icon={PencilIcon}
                onClick={() => onEdit(question)}
              />
              <RowAction
                tip="Delete"
                label={`Delete ${label}`}
                icon={Trash2Icon}
                className="hover:bg-red-50 hover:text-red-700"
                onClick={() => void remove(question)}
              />
            </div>
          </li>
        );
      })}
      {confirmDialog}
    </ol>
  );
}

/** One icon action of a question's row, named for screen readers and shown as a tooltip. */
function RowAction({
  tip,
  label,
  icon: Icon,
  className,
  disabled,
  onClick,
}: {
  tip: string;
  label: string;
  icon: LucideIcon;
  className?: string;
  disabled?: boolean;
  onClick: () => void;
}) {
  return (
    <SimpleTooltip content={tip}>
      <Button
        variant="ghost"
        size="icon-sm"
        className={cn("text-zinc-600", className)}
        aria-label={label}
        disabled={disabled}
        onClick={onClick}
      >
        <Icon aria-hidden="true" />
      </Button>
    </SimpleTooltip>
  );
}
