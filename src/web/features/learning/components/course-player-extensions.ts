import type { EnrollmentWithRelations } from "@contract";
import type { ReactNode } from "react";
import type { ButtonProps } from "../../../components/ui/button";

/** What other steps of completion add to the player; each renders nothing when it does not apply. */
export type PlayerExtensions = {
  /** Shown with the current module, under its description (e.g. its review questions). */
  renderModuleExtra?: (args: { courseId: string; moduleId: string }) => ReactNode;
  /** Inside the module's <video>: its <track> elements (e.g. caption tracks). */
  renderVideoTracks?: (args: { courseId: string; moduleId: string }) => ReactNode;
  /** Right under the video, with its element (e.g. a captions switch and the transcript). */
  renderVideoExtra?: (args: {
    courseId: string;
    moduleId: string;
    video: HTMLVideoElement | null;
  }) => ReactNode;
  /**
   * Shown once every module is done and the course is not complete yet (e.g. the final
   * exam). `autoFocus` asks it to take focus: the learner just completed the last module.
   */
  renderNextStep?: (args: { courseId: string; autoFocus: boolean }) => ReactNode;
  /** Under the course's heading (e.g. a link to the activity's information, an expiry notice). */
  renderHeaderExtra?: (args: { courseId: string }) => ReactNode;
  /**
   * Right under the header, above the video: the learner's next step when it waits on
   * another screen (the evaluation, the attestation), so it is never found only far below.
   */
  renderNextStepTop?: (args: { courseId: string }) => ReactNode;
  /**
   * In place of 'Mark as Complete': `action` itself, or why the module cannot be completed
   * yet (e.g. its review questions are unanswered).
   */
  renderCompleteAction?: (args: {
    courseId: string;
    moduleId: string;
    action: ReactNode;
  }) => ReactNode;
  /**
   * Under the current module: where the learner stands with every step of the course.
   * `progressKey` changes with each completed module; `autoFocus` as for `renderNextStep`.
   */
  renderCompletion?: (args: {
    courseId: string;
    autoFocus: boolean;
    progressKey: number;
  }) => ReactNode;
  /**
   * While set, every module not yet completed stays locked and this shows in place of the
   * video: something the course asks for before its first module (e.g. an acknowledgement).
   */
  startGate?: ReactNode;
};

export type CertificateButtonProps = {
  enrollment: EnrollmentWithRelations;
  className?: string;
  variant?: ButtonProps["variant"];
  size?: ButtonProps["size"];
};
