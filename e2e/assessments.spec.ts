import type { APIRequestContext, Page } from "@playwright/test";
import {
  ASSESSMENT_MESSAGES,
  COURSE_UNAVAILABLE,
  DEFAULT_ACTIVITY,
  DEFAULT_EXAM_SETTINGS,
  type ErrorBody,
  type ExamSettingsBody,
  QUESTION_CSV_COLUMNS,
  type Question,
  type QuestionInput,
} from "../src/contract";
import { dismissToast, expect, expectToast, signIn, test, toastLocator } from "./support/fixtures";
import {
  createPublishedCourse,
  enroll,
  nextModuleId,
  offerCredit,
  singleCreditOffer,
  uploadObject,
} from "./support/learning";
import { screensAtBothWidths } from "./support/screens";

/** Review questions, the final exam, and their results, as administrators and learners use them. */

/** A question whose right option reads "Right: …" and wrong ones "Wrong: …". */
function question(text: string, extra: Partial<QuestionInput> = {}): QuestionInput {
  return {
    pool: "final",
    kind: "single",
    text,
    options: [
      { text: `Right: ${text}`, correct: true, feedback: "That is the rule." },
      { text: `Wrong: ${text}`, correct: false, feedback: "Read the module again." },
      { text: `Also wrong: ${text}`, correct: false },
    ],
    explanation: `The rule behind "${text}".`,
    ...extra,
  };
}

async function addQuestion(api: APIRequestContext, courseId: string, body: QuestionInput) {
  const res = await api.post(`/api/courses/${courseId}/questions`, { data: body });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Question;
}

async function saveSettings(
  api: APIRequestContext,
  courseId: string,
  settings: Partial<ExamSettingsBody>,
) {
  const res = await api.put(`/api/courses/${courseId}/exam-settings`, {
    data: { ...DEFAULT_EXAM_SETTINGS, ...settings },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** Answers every question on the exam page: the right option, or a wrong one. */
async function answerAll(page: Page, right: boolean) {
  const questions = page.getByTestId("question");
  const count = await questions.count();
  for (let i = 0; i < count; i++) {
    await questions
      .nth(i)
      .getByRole("radio", { name: right ? /^Right: / : /^Wrong: / })
      .check();
  }
}

test.describe("Assessments", () => {
  test("an administrator writes questions, imports a CSV file, sets up the exam and publishes", async ({
    page,
    admin,
    adminApi,
  }) => {
    const stamp = Date.now().toString(36);
    const video = await uploadObject(
      adminApi,
      "video",
      "test-fixtures/sample-video.mp4",
      "video/mp4",
    );
    const created = await adminApi.post("/api/courses", {
      data: {
        title: `Professional Ethics ${stamp}`,
        description: "The AICPA Code of Professional Conduct in practice.",
        category: "Design",
        duration: 1,
        thumbnail: null,
        modules: [],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const course = (await created.json()) as { id: string; title: string };
    for (const title of ["Independence", "Integrity and objectivity"]) {
      const res = await adminApi.post(`/api/courses/${course.id}/modules`, {
        data: { id: nextModuleId(), title, duration: 5, videoUrl: video },
      });
      expect(res.status(), await res.text()).toBe(201);
    }
    await offerCredit(
      adminApi,
      course.id,
      singleCreditOffer({ body: "NASBA", providerNumber: "", name: "CPE credits", amount: 1 }),
    );

    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await page.goto(`/admin/courses/${course.id}`);
    const assessment = page.getByRole("region", { name: "Assessment" });
    await expect(assessment.getByTestId("exam-settings-summary")).toContainText("Off");
    // A CPE course without an exam: the accreditor's floors show as warnings.
    await expect(assessment.getByTestId("publish-checks")).toContainText(
      "NASBA self-study requires a final exam",
    );
    await expect(page.getByText("No final-exam questions yet")).toBeVisible();

    // One final-exam question written by hand.
    await page.getByRole("button", { name: "Add question" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add question" });
    await dialog
      .getByLabel("Question", { exact: true })
      .fill("Who may a member accept gifts from?");
    await dialog.getByLabel("Option A", { exact: true }).fill("Any client, without limit");
    await dialog
      .getByLabel("Option B", { exact: true })
      .fill("Only gifts reasonable in the circumstances");
    await dialog.getByLabel("Option C", { exact: true }).fill("Nobody, ever");
    // Saving without a right answer is refused by the same rules as the server's.
    await dialog.getByRole("button", { name: "Add question" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Mark at least one option correct");
    await dialog.getByLabel("Option B is correct").check();
    await expect(dialog.getByRole("alert")).toHaveCount(0);
    await dialog.getByLabel("Feedback for option B (optional)").fill("Yes: reasonable gifts only.");
    await dialog
      .getByLabel(/^Explanation/)
      .fill("ET 1.285 allows gifts reasonable in the circumstances.");
    await screensAtBothWidths(page, "assessment-question-dialog");
    await dialog.getByRole("button", { name: "Add question" }).click();
    await expectToast(page, "Question added");
    await expect(dialog).toBeHidden();
    await dismissToast(page);

    // A review question for the first module.
    await page.getByRole("tab", { name: /^Review/ }).click();
    await page.getByRole("button", { name: "Add question" }).first().click();
    const review = page.getByRole("dialog", { name: "Add question" });
    await expect(review.getByLabel("Pool")).toHaveValue("review");
    await review.getByLabel("Module").selectOption({ label: "1. Independence" });
    await review.getByLabel("Kind").selectOption("multiple");
    await review.getByLabel("Question", { exact: true }).fill("Which threats impair independence?");
    await review.getByLabel("Option A", { exact: true }).fill("Self-interest");
    await review.getByLabel("Option B", { exact: true }).fill("Familiarity");
    await review.getByLabel("Option C", { exact: true }).fill("Punctuality");
    await review.getByLabel("Option A is correct").check();
    await review.getByLabel("Option B is correct").check();
    await review.getByRole("button", { name: "Add question" }).click();
    await expectToast(page, "Question added");
    await dismissToast(page);
    await expect(
      page.getByRole("list", { name: "Review questions" }).getByTestId("question-item"),
    ).toContainText("1. Independence");

    // Six more final-exam questions from a CSV file, one broken row left out.
    await page.getByRole("tab", { name: /^Final exam/ }).click();
    const header = QUESTION_CSV_COLUMNS.join(",");
    const row = (text: string, correct: string) =>
      QUESTION_CSV_COLUMNS.map((c) =>
        c === "pool"
          ? "final"
          : c === "kind"
            ? "single"
            : c === "question"
              ? `"${text}"`
              : c === "option_a"
                ? "Yes"
                : c === "option_b"
                  ? "No"
                  : c === "correct"
                    ? correct
                    : "",
      ).join(",");
    const csv = [
      header,
      ...[1, 2, 3, 4, 5, 6].map((n) => row(`Imported rule ${n}, applied?`, "A")),
      row("A row with a wrong letter", "Z"),
    ].join("\n");
    await page.getByRole("button", { name: "Import CSV" }).click();
    const importer = page.getByRole("dialog", { name: "Import questions" });
    await expect(importer.getByRole("link", { name: "Download template" })).toHaveAttribute(
      "download",
      "questions-template.csv",
    );
    await importer.getByLabel("CSV file").setInputFiles({
      name: "questions.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });
    await expect(importer.getByTestId("import-summary")).toHaveText(
      "questions.csv: 6 questions ready, 1 row with problems (not imported).",
    );
    await expect(importer.getByTestId("import-row").last()).toContainText(
      'correct: "Z" is not an option letter (A to H)',
    );
    await screensAtBothWidths(page, "assessment-import-preview");
    await importer.getByRole("button", { name: "Import 6 questions" }).click();
    await expectToast(page, "6 questions imported");
    await dismissToast(page);
    const finalList = page.getByRole("list", { name: "Final exam questions" });
    await expect(finalList.getByTestId("question-item")).toHaveCount(7);

    // Order: the last question moves up one place.
    await finalList.getByRole("button", { name: "Move question 7 up" }).click();
    await expect(finalList.getByTestId("question-item").nth(5)).toContainText("Imported rule 6");
    // The learner's view of a question, with its answers marked.
    await finalList.getByRole("button", { name: "Preview question 1" }).click();
    const preview = page.getByRole("dialog", { name: "Question preview" });
    await expect(preview.getByRole("listitem").filter({ hasText: "(correct)" })).toHaveText(
      /Only gifts reasonable/,
    );
    await preview.getByRole("button", { name: "Close" }).click();

    // Exam settings: an exam drawing more questions than the pool holds cannot be published.
    await assessment.getByRole("button", { name: "Exam settings" }).click();
    const settings = page.getByRole("dialog", { name: "Exam settings" });
    await settings.getByLabel("Require a final exam").check();
    await settings.getByLabel("Questions per attempt").fill("8");
    await settings.getByLabel("Pass mark (%)").fill("101");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expect(settings.getByRole("alert")).toHaveText("Pass mark must be between 1 and 100");
    await settings.getByLabel("Pass mark (%)").fill("75");
    await settings.getByLabel(/^Attempts allowed/).fill("3");
    await settings.getByLabel(/^Time limit/).fill("30");
    await screensAtBothWidths(page, "assessment-settings-dialog");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expectToast(page, "Exam settings saved");
    await dismissToast(page);
    const checks = assessment.getByTestId("publish-checks");
    await expect(checks.locator('[data-severity="blocking"]')).toHaveText(
      "Blocks publishing: The exam draws 8 questions but the final pool has only 7.",
    );
    // A credit course completed by "Mark as Complete", whose credit is more than its short
    // videos support, asks first, with the reasons, and publishes only with the reason why.
    await page.getByRole("button", { name: "Publish Course" }).click();
    const confirm = page.getByRole("dialog", {
      name: "Publish with more credit than the content supports?",
    });
    await expect(confirm).toContainText("learners can mark a module complete");
    await expect(confirm).toContainText("1 CPE credit is more than the content supports");
    const reason = "The CPE credit includes the AICPA Code reading assigned with each module.";
    await confirm.getByLabel("Reason for the credit").fill(reason);
    await confirm.getByRole("button", { name: "Publish anyway" }).click();
    await expectToast(
      page,
      "Course not published",
      "The exam draws 8 questions but the final pool has only 7.",
    );
    await dismissToast(page);

    await assessment.getByRole("button", { name: "Exam settings" }).click();
    await settings.getByLabel("Questions per attempt").fill("5");
    await settings.getByRole("button", { name: "Save settings" }).click();
    await expectToast(page, "Exam settings saved");
    await dismissToast(page);
    await expect(checks.locator('[data-severity="blocking"]')).toHaveCount(0);
    await expect(assessment.getByTestId("exam-settings-summary")).toContainText("5 of 7");
    // Still short of NASBA's review floor: a warning, not a block.
    await expect(checks).toContainText("at least 3 review questions per credit");
    await screensAtBothWidths(page, "assessment-course-detail");

    await page.getByRole("button", { name: "Publish Course" }).click();
    await confirm.getByLabel("Reason for the credit").fill(reason);
    await confirm.getByRole("button", { name: "Publish anyway" }).click();
    await expectToast(page, "Course published successfully");
    await expect(page.getByRole("button", { name: "Publish Course" })).toBeHidden();
  });

  test("a learner answers review questions, fails the exam once, passes and downloads the certificate; the administrator reads the results", async ({
    page,
    adminPage,
    adminApi,
    createLearner,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36);
    const course = await createPublishedCourse(adminApi, {
      title: `Ethics in Practice ${stamp}`,
      category: "Design",
      duration: 1,
      modules: [{ title: "Confidentiality", duration: 5 }],
    });
    // Questions go into a published course too; the exam turns on once the pool is large enough.
    const module = course.modules[0]!;
    await addQuestion(
      adminApi,
      course.id,
      question("May client data be shared without consent?", {
        pool: "review",
        moduleId: module.id,
      }),
    );
    for (const text of [
      "When does confidentiality end?",
      "Who owns working papers?",
      "May you disclose to a peer reviewer?",
      "Must a subpoena be obeyed?",
    ]) {
      await addQuestion(adminApi, course.id, question(text));
    }
    await saveSettings(adminApi, course.id, {
      enabled: true,
      questionCount: 4,
      passMark: 75,
      maxAttempts: 2,
      revealAnswers: "after_pass",
    });
    // The course also asks for its evaluation, after the exam.
    const activity = await adminApi.put(`/api/courses/${course.id}/activity`, {
      data: { ...DEFAULT_ACTIVITY, evaluationRequired: true },
    });
    expect(activity.status(), await activity.text()).toBe(200);
    const learner = await createLearner({ name: "Riley Reviewer" });
    await enroll(adminApi, learner.id, course.id);

    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto(`/course/${course.id}`);
    const reviewCard = page.getByTestId("module-review");
    await expect(reviewCard).toContainText("Review questions");
    // The module cannot be completed before its review questions are answered: the button
    // gives way to what is missing, and the checklist lists the review before the modules.
    await expect(page.getByRole("button", { name: "Mark as Complete" })).toHaveCount(0);
    await expect(page.getByTestId("complete-blocked")).toHaveText(ASSESSMENT_MESSAGES.reviewFirst);
    await expect(
      page.getByTestId("completion-checklist").getByTestId("completion-step"),
    ).toHaveText([/Review questions/, /Modules/, /Final exam/, /Evaluation/, /Certificate/]);
    await screensAtBothWidths(page, "assessment-review-blocked");
    await reviewCard.getByRole("radio", { name: /^Wrong: / }).check();
    await reviewCard.getByRole("button", { name: "Check answers" }).click();
    await expect(reviewCard.getByTestId("review-outcome")).toContainText("Incorrect");
    await expect(reviewCard.getByTestId("review-outcome")).toContainText("Read the module again.");
    await screensAtBothWidths(page, "assessment-review-answered");
    await page.getByRole("button", { name: "Mark as Complete" }).click();
    await expectToast(page, "Progress updated");
    await dismissToast(page);

    const step = page.getByTestId("final-exam-step");
    await expect(step).toBeVisible();
    await step.getByRole("link", { name: "Go to the final exam" }).click();
    await expect(page.getByTestId("exam-pass-mark")).toContainText("75%");
    await screensAtBothWidths(page, "assessment-exam-intro");

    // The first attempt: every answer wrong.
    await page.getByRole("button", { name: "Start exam" }).click();
    await expect(page.getByRole("heading", { name: "Attempt 1" })).toBeVisible();
    await answerAll(page, false);
    await expect(page.getByTestId("exam-save-state")).toHaveText("Answers saved");
    await screensAtBothWidths(page, "assessment-exam-attempt");
    await page.getByRole("button", { name: "Submit exam" }).click();
    const confirm = page.getByRole("dialog", { name: "Submit your exam?" });
    await confirm.getByRole("button", { name: "Submit exam" }).click();
    const result = page.getByTestId("exam-result");
    await expect(result).toHaveAttribute("data-passed", "false");
    await expect(result.getByTestId("exam-score")).toHaveText("0%");
    // Answers are revealed only after a pass.
    await expect(page.getByTestId("reviewed-question")).toHaveCount(0);
    await screensAtBothWidths(page, "assessment-exam-failed");

    // The second attempt: every answer right.
    await result.getByRole("button", { name: "Try again" }).click();
    await expect(page.getByRole("heading", { name: "Attempt 2" })).toBeVisible();
    await answerAll(page, true);
    await page.getByRole("button", { name: "Submit exam" }).click();
    await confirm.getByRole("button", { name: "Submit exam" }).click();
    await expect(result).toHaveAttribute("data-passed", "true");
    await expect(result.getByTestId("exam-score")).toHaveText("100%");
    // The evaluation is still asked for: the result names it and leads to it.
    await expect(result.getByTestId("exam-next-step")).toContainText("Next: Evaluation.");
    await expect(page.getByTestId("reviewed-question")).toHaveCount(4);
    await screensAtBothWidths(page, "assessment-exam-passed");
    await page.getByRole("link", { name: "Back to course" }).click();
    // The player puts that next step at the top, above the video.
    const top = page.getByTestId("next-step-top");
    await expect(top).toContainText("Evaluation");
    expect((await top.boundingBox())!.y).toBeLessThan(
      (await page.getByRole("heading", { name: "Confidentiality" }).boundingBox())!.y,
    );
    await screensAtBothWidths(page, "assessment-player-next-step");
    await top.getByRole("link", { name: "Complete the evaluation" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Evaluation" })).toBeVisible();
    const ratings = page.getByRole("group");
    for (let i = 0; i < 4; i++) {
      await ratings
        .nth(i)
        .getByRole("radio", { name: /Agree$/ })
        .first()
        .check();
    }
    await page.getByRole("button", { name: "Submit evaluation" }).click();
    await expect(page.getByTestId("evaluation-done")).toBeVisible();
    // Nothing else is asked of this course: only now does the result say it is complete.
    await page.goto(`/courses/${course.id}/exam`);
    await expect(page.getByRole("region", { name: "You passed the final exam" })).toContainText(
      "The course is complete.",
    );
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: /^Download HTML certificate/ }).click();
    expect((await download).suggestedFilename()).toMatch(/\.html$/);

    // The administrator's results: two attempts, a pass, and how each question fared.
    await adminPage.goto(`/admin/courses/${course.id}`);
    await adminPage.getByRole("link", { name: "Exam results" }).click();
    await expect(adminPage.getByRole("heading", { level: 1, name: "Exam results" })).toBeVisible();
    const row = adminPage.getByTestId("exam-learner-row").filter({ hasText: learner.email });
    await expect(row).toContainText("#1 0%");
    await expect(row).toContainText("#2 100%");
    await expect(row).toContainText("Passed");
    await expect(adminPage.getByTestId("item-row")).toHaveCount(4);
    await expect(adminPage.getByTestId("item-row").first()).toContainText("50%");
    await screensAtBothWidths(adminPage, "assessment-exam-results");
    const csv = await adminApi.get(
      `/api/courses/${course.id}/exam/results?format=csv&view=attempts`,
    );
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain(learner.email);
  });

  test("Mark as Complete tells two refusals apart: review questions added meanwhile, then a course taken offline", async ({
    page,
    adminApi,
    createLearner,
  }) => {
    const course = await createPublishedCourse(adminApi, {
      title: `Audit Independence ${Date.now().toString(36)}`,
      category: "Design",
      duration: 1,
      modules: [{ title: "Threats and safeguards", duration: 5 }],
    });
    const learner = await createLearner({ name: "Quinn Quick" });
    await enroll(adminApi, learner.id, course.id);
    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto(`/course/${course.id}`);
    await expect(page.getByRole("heading", { level: 1, name: course.title })).toBeVisible();
    await dismissToast(page);
    const markComplete = page.getByRole("button", { name: "Mark as Complete" });
    await expect(markComplete).toBeVisible();
    // Review questions added while the learner has the page open: the button was offered.
    await addQuestion(
      adminApi,
      course.id,
      question("Is a loan from an audit client a threat?", {
        pool: "review",
        moduleId: course.modules[0]!.id,
      }),
    );
    /** Clicks Mark as Complete and answers the code of the server's refusal. */
    const refusalOfMarkComplete = async () => {
      const answer = page.waitForResponse(
        (res) => res.url().endsWith("/api/progress/update") && res.request().method() === "POST",
      );
      await markComplete.click();
      const res = await answer;
      expect(res.status()).toBe(409);
      return ((await res.json()) as ErrorBody).code;
    };

    // A 409 for the module's unanswered review questions: not a fault, so not "Could not save
    // your progress" but the server's reason; the questions appear and the button gives way.
    expect(await refusalOfMarkComplete()).toBe("review.answer_first");
    await expectToast(page, "This module is not complete yet", ASSESSMENT_MESSAGES.reviewFirst);
    const reviewCard = page.getByTestId("module-review");
    await expect(reviewCard).toBeVisible();
    await expect(page.getByTestId("complete-blocked")).toBeVisible();
    await dismissToast(page);
    await reviewCard.getByRole("radio", { name: /^Right: / }).check();
    await reviewCard.getByRole("button", { name: "Check answers" }).click();
    await expect(markComplete).toBeVisible();

    // Another 409 on the same button once the provider has taken the course offline: the
    // player gives way to the course's unavailable page, with no toast saying it twice.
    const unpublished = await adminApi.patch(`/api/courses/${course.id}/unpublish`);
    expect(unpublished.status(), await unpublished.text()).toBe(200);
    expect(await refusalOfMarkComplete()).toBe("courses.unpublished");
    await expect(
      page.getByRole("heading", { level: 1, name: `${course.title} is unavailable` }),
    ).toBeVisible();
    await expect(page.getByText(COURSE_UNAVAILABLE.description)).toBeVisible();
    await expect(markComplete).toHaveCount(0);
    await expect(toastLocator(page)).toBeHidden();
    await screensAtBothWidths(page, "course-player-refusals-offline");
  });

  test("an administrator grants another attempt to a learner who used them all", async ({
    page,
    adminPage,
    adminApi,
    createLearner,
    completeModules,
  }) => {
    const course = await createPublishedCourse(adminApi, {
      title: `Tax Ethics ${Date.now().toString(36)}`,
      category: "Design",
      duration: 1,
      modules: [{ title: "Circular 230", duration: 5 }],
    });
    await addQuestion(adminApi, course.id, question("Must errors be disclosed to the client?"));
    await saveSettings(adminApi, course.id, { enabled: true, questionCount: 1, maxAttempts: 1 });
    const learner = await createLearner({ name: "Morgan Many" });
    await enroll(adminApi, learner.id, course.id);
    await completeModules(learner, course as never, 1);

    await signIn(page, learner);
    await expect(page).toHaveURL(/\/learner$/);
    await page.goto(`/courses/${course.id}/exam`);
    await page.getByRole("button", { name: "Start exam" }).click();
    await answerAll(page, false);
    await page.getByRole("button", { name: "Submit exam" }).click();
    await page
      .getByRole("dialog", { name: "Submit your exam?" })
      .getByRole("button", { name: "Submit exam" })
      .click();
    await expect(page.getByTestId("exam-result")).toHaveAttribute("data-passed", "false");
    await page.goto(`/courses/${course.id}/exam`);
    await expect(page.getByTestId("exam-blocked")).toBeVisible();
    await expect(page.getByRole("button", { name: "Start exam" })).toHaveCount(0);

    await adminPage.goto(`/admin/courses/${course.id}/exam-results`);
    const row = adminPage.getByTestId("exam-learner-row").filter({ hasText: learner.email });
    await expect(row).toContainText("No attempts left");
    await row.getByRole("button", { name: `Grant ${learner.name} another attempt` }).click();
    await expectToast(adminPage, "Another attempt granted", learner.name);
    await expect(row).toContainText("+1 granted");
    // With an attempt to use again, there is nothing more to grant.
    await expect(row.getByRole("button", { name: /another attempt/ })).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole("button", { name: "Start exam" })).toBeVisible();
  });
});
