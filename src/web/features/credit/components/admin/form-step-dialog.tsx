import { COMPLETION_STEP_LABELS, FORM_STEPS, type FormStep, type FormStepKey } from "@contract";
import { type ReactNode, useState } from "react";
import { useSaveFormStep } from "../../api/admin-save-form-step";
import { getFormStepQueryOptions } from "../../api/get-form-step";
import { CREDIT_ADMIN_TOASTS } from "./admin-labels";
import { FormItemsDialog, FormItemsEditor } from "./form-items-editor";

/**
 * Edits a form step of the course (the commitment to change…): whether learners must complete
 * it, and its items, saved together.
 */
export function FormStepDialog({
  courseId,
  step,
  trigger,
}: {
  courseId: string;
  step: FormStepKey;
  trigger: ReactNode;
}) {
  return (
    <FormItemsDialog
      label={COMPLETION_STEP_LABELS[step]}
      description={FORM_STEPS[step].adminHint}
      trigger={trigger}
      formQueryOptions={getFormStepQueryOptions(courseId, step)}
    >
      {(saved, close) => (
        <FormStepEditor courseId={courseId} step={step} saved={saved} onDone={close} />
      )}
    </FormItemsDialog>
  );
}

function FormStepEditor({
  courseId,
  step,
  saved,
  onDone,
}: {
  courseId: string;
  step: FormStepKey;
  saved: FormStep;
  onDone: () => void;
}) {
  const save = useSaveFormStep();
  const [required, setRequired] = useState(saved.required);
  const label = COMPLETION_STEP_LABELS[step];
  return (
    <FormItemsEditor
      label={label}
      idPrefix={step}
      items={saved.items}
      savedToast={CREDIT_ADMIN_TOASTS.formStepSaved(label)}
      onSave={(items) => save.mutateAsync({ courseId, step, settings: { required, items } })}
      onDone={onDone}
    >
      <label className="flex cursor-pointer items-start gap-3 rounded-xl border border-zinc-200 p-3 text-sm has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-indigo-600"
          checked={required}
          onChange={(event) => setRequired(event.target.checked)}
        />
        <span className="grid gap-0.5">
          <span className="font-medium text-zinc-900">Learners must complete this step</span>
          <span className="text-zinc-600">
            They answer these items before receiving the certificate. Turned off, learners are not
            asked and the items are kept.
          </span>
        </span>
      </label>
    </FormItemsEditor>
  );
}
