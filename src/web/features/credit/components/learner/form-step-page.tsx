import {
  COMPLETION_STEP_LABELS,
  CREDIT_MESSAGES,
  FORM_STEPS,
  type FormStepKey,
  MESSAGES,
} from "@contract";
import { CircleCheckBigIcon, SearchXIcon } from "lucide-react";
import { LearnerPageNotice } from "../../../../components/ui/learner-page-notice";
import { useDates } from "../../../../lib/dates";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { getFormStepQueryOptions } from "../../api/get-form-step";
import { useSubmitFormStep } from "../../api/submit-form-step";
import { AnswersStep, StepDone, type StepPageProps } from "./answers-step";
import { GivenAnswers } from "./given-answers";

/**
 * A form step of the contract (the commitment to change…): its form in the words its
 * declaration gives, sent once; afterwards the thanks and the learner's own answers.
 */
export function FormStepPage({ step, ...props }: StepPageProps & { step: FormStepKey }) {
  const submit = useSubmitFormStep(step);
  const dates = useDates();
  const declared = FORM_STEPS[step];
  return (
    <AnswersStep
      {...props}
      step={step}
      description={declared.intro}
      submitLabel={declared.submit}
      formQueryOptions={getFormStepQueryOptions(props.courseId, step)}
      isAsked={(_activity, form) => form.required}
      isAnswered={(form) => form.answers !== null}
      notAsked={CREDIT_MESSAGES.formStepNotAsked(COMPLETION_STEP_LABELS[step].toLowerCase())}
      // Answered from another tab, or no longer asked: the page reads the step again.
      staleCodes={["forms.already_answered", "forms.not_asked"]}
      submit={submit}
      done={(form, thanked) => (
        <>
          <StepDone
            icon={CircleCheckBigIcon}
            thanked={thanked}
            testId="form-step-done"
            title={declared.thanks}
          >
            {form.answeredAt ? `Answered on ${dates.date(form.answeredAt)}. ` : null}
            Each learner answers once; your answers are below.
          </StepDone>
          <GivenAnswers items={form.items} answers={form.answers ?? []} />
        </>
      )}
    />
  );
}

/** An address under a course's steps that names no form step of the contract. */
export function FormStepNotFound() {
  useDocumentTitle(MESSAGES.pageNotFound);
  return (
    <LearnerPageNotice icon={SearchXIcon} title={MESSAGES.pageNotFound}>
      This course has no such step. Its steps are listed on the course page.
    </LearnerPageNotice>
  );
}
