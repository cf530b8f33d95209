import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CAPTION_MESSAGES,
  CAPTIONS_PER_MODULE_MAX,
  type CaptionCoverage,
  type ModuleMedia,
  TRANSCRIPT_MAX_CHARS,
} from "../../../contract";
import {
  buildPublishedCourse,
  call,
  completeViaApi,
  enrollViaApi,
  quickAdmin,
  quickLearner,
  signInAs,
  useSharedVideo,
} from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { moduleCaptions, moduleTranscripts } from "./captions.table";

const sampleVtt = readFileSync(
  new URL("../../../../test-fixtures/sample-captions.vtt", import.meta.url),
);
const base64 = (text: string | Buffer) => Buffer.from(text).toString("base64");
const upload = (data: string | Buffer, extra: Record<string, unknown> = {}) => ({
  label: "English",
  fileName: "lecture.vtt",
  contentType: "text/vtt",
  data: base64(data),
  ...extra,
});

describe("captions and transcripts of module videos", () => {
  const ctx = useTestApp();
  const video = useSharedVideo(ctx);

  /** A published two-module course, an enrolled learner and the module URLs. */
  async function setup() {
    const admin = await quickAdmin(ctx);
    const adminCookie = await signInAs(ctx, admin);
    const course = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
      modules: 2,
    });
    const learner = await quickLearner(ctx);
    const cookie = await signInAs(ctx, learner);
    await enrollViaApi(ctx, adminCookie, learner.id, course.id);
    const [first, second] = course.modules.map(
      (m) => `/api/courses/${course.id}/modules/${m.id}`,
    ) as [string, string];
    return { adminCookie, course, learner, cookie, first, second };
  }

  const storedTracks = () => ctx.database.db.select().from(moduleCaptions);

  it("stores, replaces, lists, serves and deletes caption tracks, refusing bad files with the line at fault", async () => {
    const { adminCookie, course, first } = await setup();

    const put = await call(ctx, "PUT", `${first}/captions/en`, {
      cookie: adminCookie,
      payload: upload(sampleVtt),
    });
    expect(put.statusCode, put.body).toBe(200);
    const media = put.json() as ModuleMedia;
    expect(media.transcript).toBe("");
    expect(media.captions).toHaveLength(1);
    const [track] = media.captions;
    expect(track).toMatchObject({ language: "en", label: "English", cues: 3 });
    expect(track!.src).toMatch(
      new RegExp(
        `^/api/courses/${course.id}/modules/${course.modules[0]!.id}/captions/en\\.vtt\\?v=\\d+$`,
      ),
    );

    // The file comes back as WebVTT, exactly as uploaded.
    const file = await call(ctx, "GET", track!.src, { cookie: adminCookie });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("text/vtt; charset=utf-8");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.body).toBe(sampleVtt.toString("utf8"));

    // A language tag in any case is one language; a BOM and a missing type with a .vtt name are fine.
    const second = await call(ctx, "PUT", `${first}/captions/PT-br`, {
      cookie: adminCookie,
      payload: upload(
        Buffer.concat([
          Buffer.from([0xef, 0xbb, 0xbf]),
          Buffer.from("WEBVTT\n\n00:01.000 --> 00:02.000\nOlá, turma!\n"),
        ]),
        { label: "  Português (Brasil) ", contentType: "" },
      ),
    });
    expect(second.statusCode, second.body).toBe(200);
    expect((second.json() as ModuleMedia).captions.map((c) => [c.language, c.label])).toEqual([
      ["en", "English"],
      ["pt-BR", "Português (Brasil)"],
    ]);
    const pt = await call(ctx, "GET", `${first}/captions/pt-BR.vtt`, { cookie: adminCookie });
    expect(pt.body).toBe("WEBVTT\n\n00:01.000 --> 00:02.000\nOlá, turma!\n");

    // Replacing keeps one track per language, with a new address.
    const replaced = await call(ctx, "PUT", `${first}/captions/en`, {
      cookie: adminCookie,
      payload: upload("WEBVTT\n\n00:00.500 --> 00:03.000\nHello again.\n", {
        label: "English (UK)",
      }),
    });
    expect(replaced.statusCode).toBe(200);
    const en = (replaced.json() as ModuleMedia).captions.find((c) => c.language === "en")!;
    expect(en).toMatchObject({ label: "English (UK)", cues: 1 });
    expect((await call(ctx, "GET", en.src, { cookie: adminCookie })).body).toContain(
      "Hello again.",
    );
    expect(await storedTracks()).toHaveLength(2);

    // Bad input: a clear message, and nothing changes.
    const before = await storedTracks();
    const refusals: [Record<string, unknown>, string, number, RegExp][] = [
      [
        upload(sampleVtt, { fileName: "lecture.srt", contentType: "application/x-subrip" }),
        "en",
        415,
        /^Choose a WebVTT caption file/,
      ],
      [
        upload("WEBVTT\n\n00:01.000 --> 00:00.500\nBackwards\n"),
        "en",
        400,
        /^Line 3: the cue ends at 00:00.500/,
      ],
      [
        upload("1\n00:00:01,000 --> 00:00:02,000\nSRT\n"),
        "en",
        400,
        /^Line 1: a WebVTT file must start with "WEBVTT"/,
      ],
      [
        upload(Buffer.from([...Buffer.from("WEBVTT\n\n00:01.000 --> 00:02.000\ncaf"), 0xe9])),
        "en",
        400,
        /^Line 4: the file is not UTF-8/,
      ],
      [
        upload(`WEBVTT\n\nNOTE ${"x".repeat(1024 * 1024)}\n`),
        "en",
        413,
        /^Caption files are limited to 1 MB/,
      ],
      [upload(sampleVtt, { label: " " }), "en", 400, /^Label is required$/],
      [upload(sampleVtt), "english!", 400, /BCP 47/],
      [
        { ...upload(sampleVtt), data: "not base64!" },
        "en",
        400,
        /^The file.s contents did not arrive/,
      ],
      [{ ...upload(sampleVtt), extra: 1 }, "en", 400, /^"extra" is not a field of this form$/],
    ];
    for (const [payload, language, status, message] of refusals) {
      const response = await call(ctx, "PUT", `${first}/captions/${language}`, {
        cookie: adminCookie,
        payload,
      });
      expect(response.statusCode, response.body).toBe(status);
      expect((response.json() as { message: string }).message).toMatch(message);
    }
    expect(await storedTracks()).toEqual(before);

    // Unknown course, module or track.
    const missing = [
      await call(ctx, "PUT", `/api/courses/nope/modules/${course.modules[0]!.id}/captions/fr`, {
        cookie: adminCookie,
        payload: upload(sampleVtt),
      }),
      await call(ctx, "PUT", `/api/courses/${course.id}/modules/module_1700000000999/captions/fr`, {
        cookie: adminCookie,
        payload: upload(sampleVtt),
      }),
      await call(ctx, "DELETE", `${first}/captions/fr`, { cookie: adminCookie }),
      await call(ctx, "GET", `${first}/captions/fr.vtt`, { cookie: adminCookie }),
    ];
    expect(missing.map((r) => r.statusCode)).toEqual([404, 404, 404, 404]);
    expect(missing[2]!.json()).toEqual({
      message: CAPTION_MESSAGES.trackNotFound,
      code: "captions.not_found",
    });

    const removed = await call(ctx, "DELETE", `${first}/captions/PT-BR`, { cookie: adminCookie });
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as ModuleMedia).captions.map((c) => c.language)).toEqual(["en"]);
    expect(
      (await call(ctx, "GET", `${first}/captions/pt-BR.vtt`, { cookie: adminCookie })).statusCode,
    ).toBe(404);
  });

  it("keeps at most ten languages per module, still allowing a replacement", async () => {
    const { adminCookie, first } = await setup();
    const languages = ["en", "fr", "de", "es", "it", "nl", "pl", "sv", "ja", "ko", "zh-Hant"];
    const answers = await Promise.all(
      languages.map((language) =>
        call(ctx, "PUT", `${first}/captions/${language}`, {
          cookie: adminCookie,
          payload: upload(sampleVtt, { label: language }),
        }),
      ),
    );
    // Concurrent uploads of new languages cannot slip past the limit together.
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(CAPTIONS_PER_MODULE_MAX);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused.map((a) => [a.statusCode, (a.json() as { message: string }).message])).toEqual([
      [409, CAPTION_MESSAGES.tooMany],
    ]);
    expect(await storedTracks()).toHaveLength(CAPTIONS_PER_MODULE_MAX);
    const kept = (await storedTracks())[0]!.language;
    const replace = await call(ctx, "PUT", `${first}/captions/${kept}`, {
      cookie: adminCookie,
      payload: upload(sampleVtt, { label: "Replaced" }),
    });
    expect(replace.statusCode).toBe(200);
  });

  it("serves captions and the transcript under the video's rule: enrolled, published, unlocked", async () => {
    const { adminCookie, course, learner, cookie, first, second } = await setup();
    for (const url of [first, second]) {
      expect(
        (
          await call(ctx, "PUT", `${url}/captions/en`, {
            cookie: adminCookie,
            payload: upload(sampleVtt),
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await call(ctx, "PUT", `${url}/transcript`, {
            cookie: adminCookie,
            payload: { transcript: "Welcome to the course." },
          })
        ).statusCode,
      ).toBe(200);
    }

    // The enrolled learner reads the first module's captions and transcript.
    const media = await call(ctx, "GET", `${first}/media`, { cookie });
    expect(media.statusCode, media.body).toBe(200);
    const { captions, transcript } = media.json() as ModuleMedia;
    expect(transcript).toBe("Welcome to the course.");
    const file = await call(ctx, "GET", captions[0]!.src, { cookie });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(sampleVtt.toString("utf8"));

    // The second module is locked until the first is complete, like its video.
    for (const url of [`${second}/media`, `${second}/captions/en.vtt`]) {
      const locked = await call(ctx, "GET", url, { cookie });
      expect(locked.statusCode, url).toBe(403);
      expect(locked.json()).toEqual({
        message: CAPTION_MESSAGES.moduleLocked,
        code: "captions.module_locked",
      });
    }
    await completeViaApi(ctx, cookie, learner.id, course, 1);
    expect((await call(ctx, "GET", `${second}/captions/en.vtt`, { cookie })).statusCode).toBe(200);

    // Anonymous, unenrolled and other courses' learners are refused, as for the video.
    const stranger = await signInAs(ctx, await quickLearner(ctx));
    const otherCourse = await buildPublishedCourse(ctx, adminCookie, {
      video: await video(adminCookie),
    });
    const elsewhere = await quickLearner(ctx);
    await enrollViaApi(ctx, adminCookie, elsewhere.id, otherCourse.id);
    const elsewhereCookie = await signInAs(ctx, elsewhere);
    for (const url of [`${first}/media`, `${first}/captions/en.vtt`]) {
      expect((await call(ctx, "GET", url)).statusCode, url).toBe(401);
      expect((await call(ctx, "GET", url, { cookie: stranger })).statusCode, url).toBe(404);
      expect((await call(ctx, "GET", url, { cookie: elsewhereCookie })).statusCode, url).toBe(404);
    }
    // The other course's module under this course's id is not a way in either.
    const crossed = `/api/courses/${course.id}/modules/${otherCourse.modules[0]!.id}/media`;
    expect((await call(ctx, "GET", crossed, { cookie: elsewhereCookie })).statusCode).toBe(404);

    // Learners read, never write.
    const writes = [
      await call(ctx, "PUT", `${first}/captions/fr`, { cookie, payload: upload(sampleVtt) }),
      await call(ctx, "DELETE", `${first}/captions/en`, { cookie }),
      await call(ctx, "PUT", `${first}/transcript`, { cookie, payload: { transcript: "mine" } }),
      await call(ctx, "GET", `/api/courses/${course.id}/captions`, { cookie }),
    ];
    expect(writes.map((r) => r.statusCode)).toEqual([403, 403, 403, 403]);
    expect(await storedTracks()).toHaveLength(2);
  });

  it("keeps, trims, limits and removes a transcript, reports coverage, and goes with the module", async () => {
    const { adminCookie, course, first, second } = await setup();
    const coverage = async () =>
      (
        await call(ctx, "GET", `/api/courses/${course.id}/captions`, { cookie: adminCookie })
      ).json() as CaptionCoverage;
    expect(await coverage()).toEqual({
      modules: course.modules.map((m) => ({ moduleId: m.id, languages: [], hasTranscript: false })),
    });

    const transcript = "  Добро пожаловать.\n\nSecond paragraph.  ";
    const saved = await call(ctx, "PUT", `${first}/transcript`, {
      cookie: adminCookie,
      payload: { transcript },
    });
    expect(saved.statusCode).toBe(200);
    expect((saved.json() as ModuleMedia).transcript).toBe(transcript.trim());

    const tooLong = await call(ctx, "PUT", `${first}/transcript`, {
      cookie: adminCookie,
      payload: { transcript: "x".repeat(TRANSCRIPT_MAX_CHARS + 1) },
    });
    expect(tooLong.statusCode).toBe(400);
    expect((tooLong.json() as { message: string }).message).toBe(
      "Transcript must be at most 100,000 characters",
    );
    const longest = await call(ctx, "PUT", `${second}/transcript`, {
      cookie: adminCookie,
      payload: { transcript: "語".repeat(TRANSCRIPT_MAX_CHARS) },
    });
    expect(longest.statusCode, longest.body).toBe(200);
    expect(
      (
        await call(ctx, "PUT", `${second}/captions/fr`, {
          cookie: adminCookie,
          payload: upload(sampleVtt, { label: "Français" }),
        })
      ).statusCode,
    ).toBe(200);

    expect(await coverage()).toEqual({
      modules: [
        { moduleId: course.modules[0]!.id, languages: [], hasTranscript: true },
        { moduleId: course.modules[1]!.id, languages: ["fr"], hasTranscript: true },
      ],
    });

    // An empty transcript removes it.
    const cleared = await call(ctx, "PUT", `${first}/transcript`, {
      cookie: adminCookie,
      payload: { transcript: "   " },
    });
    expect((cleared.json() as ModuleMedia).transcript).toBe("");
    expect(await ctx.database.db.select().from(moduleTranscripts)).toHaveLength(1);

    // Deleting the module deletes its captions and transcript.
    const deleted = await call(ctx, "DELETE", second, { cookie: adminCookie });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await storedTracks()).toEqual([]);
    expect(await ctx.database.db.select().from(moduleTranscripts)).toEqual([]);
  });
});
