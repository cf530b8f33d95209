import { CREDIT_MESSAGES } from "@contract";
import { HeartHandshakeIcon } from "lucide-react";
import { getEvaluationQueryOptions } from "../../api/get-evaluation";
import { useSubmitEvaluation } from "../../api/submit-evaluation";
import { AnswersStep, StepDone, type StepPageProps } from "./answers-step";

/**
 * The course evaluation accreditors ask for: rating items on a five-point scale and free-text
 * items, sent once. Afterwards, thanks and the way on to the next step.
 */
export function EvaluationPage(props: StepPageProps) {
  const submit = useSubmitEvaluation();
  return (
    <AnswersStep
      {...props}
      step="evaluation"
      description="Tell us how this activity worked for you. Your answers are reported without your name."
      submitLabel="Submit evaluation"
      formQueryOptions={getEvaluationQueryOptions(props.courseId)}
      isAsked={(activity) => activity.evaluationRequired}
      isAnswered={(form) => form.submitted}
      notAsked={CREDIT_MESSAGES.evaluationNotAsked}
      staleCodes={["evaluation.already_submitted"]}
      submit={submit}
      done={(_form, thanked) => (
        <StepDone
          icon={HeartHandshakeIcon}
          thanked={thanked}
          testId="evaluation-done"
          title={thanked ? "Thank you for your feedback" : CREDIT_MESSAGES.evaluationDone}
        >
          {thanked
            ? "Your evaluation has been recorded. It helps the provider improve this activity."
            : "Each learner evaluates a course once."}
        </StepDone>
      )}
    />
  );
}
