import type { Page } from "@playwright/test";
import { dismissToast, expect, expectToast, signIn, test } from "./support/fixtures";
import { screensAtBothWidths } from "./support/screens";

/** Captions and transcripts of module videos (WCAG 2.1 SC 1.2.2), in the browser. */

const CAPTIONS_FILE = "test-fixtures/sample-captions.vtt";
const TRANSCRIPT =
  "Welcome to the course.\n\nCaptions help everyone follow along. Thank you for watching.";

/** The modes of the player video's caption tracks, as the TextTrack API reports them. */
const trackModes = (page: Page) =>
  page
    .getByTestId("module-video")
    .evaluate((video) =>
      Array.from((video as HTMLVideoElement).textTracks).map((t) => `${t.language}:${t.mode}`),
    );

test.describe("Captions and transcripts", () => {
  test("admin adds captions and a transcript; the learner turns captions on by keyboard and reads the transcript", async ({
    page,
    admin,
    createCourse,
    createLearner,
    enroll,
  }) => {
    const course = await createCourse({ modules: 2, publish: true, title: "Caption basics" });
    const learner = await createLearner({ name: "Cora Caption" });
    await enroll(learner.id, course.id);

    // The course page warns about published modules without captions, without blocking.
    await signIn(page, admin);
    await page.waitForURL("**/admin");
    await page.goto(`/admin/courses/${course.id}`);
    const notice = page.getByTestId("missing-captions-notice");
    await expect(notice).toContainText(
      "2 published modules have no captions: learners who are deaf or hard of hearing cannot follow them (WCAG 1.2.2).",
    );
    await expect(page.getByTestId("no-captions-badge")).toHaveCount(2);
    await expect(
      page.getByRole("button", { name: "Captions and transcript of Module 1" }),
    ).toBeVisible();
    await screensAtBothWidths(page, "captions-admin-warning");

    // A file that is not WebVTT is refused with the line at fault; nothing is added.
    await page.getByRole("button", { name: "Captions and transcript of Module 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Captions and transcript" });
    await expect(dialog.getByText("No caption tracks yet.")).toBeVisible();
    await dialog.getByLabel("Language").fill("en");
    await expect(dialog.getByLabel("Label")).toHaveValue("English");
    await dialog.getByLabel("Caption file").setInputFiles({
      name: "broken.vtt",
      mimeType: "text/vtt",
      buffer: Buffer.from("WEBVTT\n\n00:05.000 --> 00:01.000\nBackwards\n"),
    });
    await dialog.getByRole("button", { name: "Upload captions" }).click();
    await expect(dialog.getByTestId("captions-error")).toHaveText(
      "Line 3: the cue ends at 00:01.000, which is not after its start 00:05.000.",
    );
    await expect(dialog.getByTestId("caption-track")).toHaveCount(0);

    // The real file goes up and is listed with its cues.
    await dialog.getByLabel("Caption file").setInputFiles(CAPTIONS_FILE);
    await dialog.getByRole("button", { name: "Upload captions" }).click();
    await expectToast(page, "Captions added", "English (en)");
    await expect(dialog.getByTestId("captions-error")).toBeHidden();
    await expect(dialog.getByTestId("caption-track")).toHaveText(/en\s*English\s*3 cues/);

    await dialog.getByLabel("Transcript").fill(TRANSCRIPT);
    await dialog.getByRole("button", { name: "Save transcript" }).click();
    await expectToast(page, "Transcript saved");
    await expect(dialog.getByRole("button", { name: "Save transcript" })).toBeDisabled();
    await screensAtBothWidths(page, "captions-admin-dialog");
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    await expect(notice).toContainText("1 published module has no captions");
    await expect(page.getByTestId("captions-badge")).toHaveText(/en/);

    // Captions for the second module too: the warning goes away.
    await page.getByRole("button", { name: "Captions and transcript of Module 2" }).click();
    await dialog.getByLabel("Language").fill("fr");
    await expect(dialog.getByLabel("Label")).toHaveValue("Français");
    await dialog.getByLabel("Label").fill("Français (France)");
    await dialog.getByLabel("Caption file").setInputFiles(CAPTIONS_FILE);
    await dialog.getByRole("button", { name: "Upload captions" }).click();
    await expectToast(page, "Captions added", "Français (France) (fr)");
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(notice).toBeHidden();
    await expect(page.getByTestId("no-captions-badge")).toHaveCount(0);
    await dismissToast(page);
    await screensAtBothWidths(page, "captions-admin-course");

    // The learner's player carries the track; captions start off.
    await page.context().clearCookies();
    await signIn(page, learner);
    await page.waitForURL("**/learner");
    await page.goto(`/course/${course.id}`);
    const toggle = page.getByRole("button", { name: "Captions", exact: true });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await expect.poll(() => trackModes(page)).toEqual(["en:disabled"]);

    // Turned on from the keyboard, the English track shows and its cues load.
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => trackModes(page)).toEqual(["en:showing"]);
    await expect
      .poll(() =>
        page
          .getByTestId("module-video")
          .evaluate((video) => (video as HTMLVideoElement).textTracks[0]?.cues?.length ?? 0),
      )
      .toBe(3);
    // A moment into the video, its first cue is the one on screen.
    await page.getByTestId("module-video").evaluate(
      (video) =>
        new Promise<void>((resolve) => {
          const media = video as HTMLVideoElement;
          media.addEventListener("seeked", () => resolve(), { once: true });
          media.currentTime = 0.5;
        }),
    );
    await expect
      .poll(() =>
        page.getByTestId("module-video").evaluate((video) => {
          const cue = (video as HTMLVideoElement).textTracks[0]?.activeCues?.[0];
          return cue instanceof VTTCue ? cue.text : null;
        }),
      )
      .toBe("Welcome to the course.");

    // The transcript opens from the keyboard too.
    const transcriptButton = page.getByRole("button", { name: "Transcript", exact: true });
    await expect(transcriptButton).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("transcript")).toBeHidden();
    await transcriptButton.focus();
    await page.keyboard.press("Space");
    await expect(transcriptButton).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByRole("region", { name: "Transcript text" })).toHaveText(TRANSCRIPT);
    await screensAtBothWidths(page, "captions-player");

    // Turned off again with Space; the choice is kept for the next visit.
    await toggle.focus();
    await page.keyboard.press("Space");
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await expect.poll(() => trackModes(page)).toEqual(["en:disabled"]);
    await toggle.press("Enter");
    await page.reload();
    await expect(page.getByRole("button", { name: "Captions", exact: true })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    await expect.poll(() => trackModes(page)).toEqual(["en:showing"]);
  });
});
