import type { ReactNode } from "react";
import { useSaveEvaluationForm } from "../../api/admin-save-evaluation-form";
import { getEvaluationQueryOptions } from "../../api/get-evaluation";
import { CREDIT_ADMIN_TOASTS } from "./admin-labels";
import { FormItemsDialog, FormItemsEditor } from "./form-items-editor";

/** Edits the course evaluation: its items, their kind, whether each must be answered, the order. */
export function EvaluationFormDialog({
  courseId,
  trigger,
}: {
  courseId: string;
  trigger: ReactNode;
}) {
  const save = useSaveEvaluationForm();
  return (
    <FormItemsDialog
      label="Evaluation"
      description="Learners answer these after the course. Answers are anonymous in the results; an item keeps its answers when its wording changes."
      trigger={trigger}
      formQueryOptions={getEvaluationQueryOptions(courseId)}
    >
      {(saved, close) => (
        <FormItemsEditor
          label="Evaluation"
          idPrefix="evaluation"
          items={saved.items}
          savedToast={CREDIT_ADMIN_TOASTS.evaluationSaved}
          onSave={(items) => save.mutateAsync({ courseId, form: { items } })}
          onDone={close}
        />
      )}
    </FormItemsDialog>
  );
}
