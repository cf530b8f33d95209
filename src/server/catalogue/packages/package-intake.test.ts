import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import {
  type Course,
  type ErrorCode,
  PACKAGE_MAX_BYTES,
  PACKAGE_MAX_ENTRIES,
  type PackageSummary,
} from "../../../contract";
import { enrollments } from "../../learning/enrollments/enrollments.table";
import { objects } from "../../platform/objects/objects.table";
import { createCourse, moduleId, postModule, publish } from "../../testing/courses";
import { expectErrorBody, expectFieldRefused } from "../../testing/errors";
import {
  call,
  enrollViaApi,
  postProgress,
  quickAdmin,
  quickLearner,
  signInAs,
} from "../../testing/learning";
import {
  isStored,
  objectIdOf,
  STORE_KINDS,
  type StoreTestContext,
  useTestAppWithStore,
} from "../../testing/object-stores";
import { fixture, requestUpload, uploadObject } from "../../testing/uploads";
import { cmi5Package, golfPackage, makeZip, scormManifest, scormZip } from "../../testing/zips";
import { modules } from "../courses/courses.table";
import { createPackagesSweeper } from "./packages.sweeper";
import { contentPackages } from "./packages.table";

const packageBody = (packagePath: string, kind: "scorm" | "cmi5", n = 1) => ({
  id: moduleId(n),
  title: `Package ${n}`,
  description: "",
  duration: 20,
  kind,
  packagePath,
});

describe.each(STORE_KINDS)("package modules (%s object store)", (storeKind) => {
  const ctx: StoreTestContext = useTestAppWithStore(storeKind);
  // The database is emptied before each test; the packages' files go with it.
  beforeEach(async () => {
    for await (const id of ctx.store.listPackages()) await ctx.store.deletePackage(id);
  });

  async function admin() {
    return signInAs(ctx, await quickAdmin(ctx));
  }

  const uploadPackage = (cookie: string, bytes: Buffer) =>
    uploadObject(ctx, cookie, { kind: "package", bytes });

  /** Uploads a package and adds it as module `n`; the raw answer and the upload's path. */
  async function addPackage(
    cookie: string,
    courseId: string,
    bytes: Buffer,
    kind: "scorm" | "cmi5" = "scorm",
    n = 1,
  ) {
    const path = await uploadPackage(cookie, bytes);
    const response = await postModule(ctx, cookie, courseId, packageBody(path, kind, n));
    return { response, path };
  }

  async function storedPackages(): Promise<string[]> {
    const ids: string[] = [];
    for await (const id of ctx.store.listPackages()) ids.push(id);
    return ids;
  }

  /** Nothing of a refused package stays: no files, no row, no upload, no temporary file. */
  async function expectNothingLeft(paths: string[]) {
    expect(await storedPackages()).toEqual([]);
    expect(await ctx.database.db.select().from(contentPackages)).toEqual([]);
    expect(await ctx.database.db.select().from(modules)).toEqual([]);
    for (const path of paths) {
      expect(await isStored(ctx, path), path).toBe(false);
      const rows = await ctx.database.db
        .select()
        .from(objects)
        .where(eq(objects.id, objectIdOf(path)));
      expect(rows, path).toEqual([]);
    }
    const temp = join(ctx.dataDir, "tmp");
    expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
  }

  async function packageRow(id: string) {
    const [row] = await ctx.database.db
      .select()
      .from(contentPackages)
      .where(eq(contentPackages.id, id));
    return row!;
  }

  async function readStored(packageId: string, file: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await ctx.store.readPackageFile(packageId, file)) {
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString("utf8");
  }

  async function packageIdOf(courseId: string, module: string) {
    const [row] = await ctx.database.db
      .select({ packageId: modules.packageId })
      .from(modules)
      .where(eq(modules.id, module));
    expect(row?.packageId, `${courseId} ${module}`).toBeTruthy();
    return row!.packageId!;
  }

  describe("uploading a package", () => {
    it("takes a .zip of up to 500 MB as application/zip, and nothing else as a package", async () => {
      const cookie = await admin();
      const ok = await requestUpload(ctx, cookie, {
        kind: "package",
        contentType: "application/zip",
        size: PACKAGE_MAX_BYTES,
        fileName: "Course Export.ZIP",
      });
      expect(ok.statusCode).toBe(200);
      const refusals: [string, Parameters<typeof requestUpload>[2], number, ErrorCode][] = [
        [
          "a name that is not .zip",
          { kind: "package", contentType: "application/zip", size: 10, fileName: "course.pdf" },
          415,
          "uploads.type_not_allowed",
        ],
        [
          "another type",
          { kind: "package", contentType: "application/pdf", size: 10, fileName: "course.zip" },
          415,
          "uploads.type_not_allowed",
        ],
        [
          "over 500 MB",
          {
            kind: "package",
            contentType: "application/zip",
            size: PACKAGE_MAX_BYTES + 1,
            fileName: "course.zip",
          },
          413,
          "uploads.too_large",
        ],
      ];
      for (const [label, body, status, code] of refusals) {
        const response = await requestUpload(ctx, cookie, body);
        expect(response.statusCode, label).toBe(status);
        expect(expectErrorBody(response, label).code, label).toBe(code);
      }
    });

    it("never lets a learner download the uploaded .zip", async () => {
      const cookie = await admin();
      const path = await uploadPackage(cookie, golfPackage("singlesco_scorm12.zip"));
      const course = await createCourse(ctx, cookie);
      const added = await postModule(ctx, cookie, course.id, packageBody(path, "scorm"));
      expect(added.statusCode).toBe(201);
      await publish(ctx, cookie, course.id);
      const learner = await quickLearner(ctx);
      await enrollViaApi(ctx, cookie, learner.id, course.id);
      const learnerCookie = await signInAs(ctx, learner);
      const download = await call(ctx, "GET", path, { cookie: learnerCookie });
      expect(download.statusCode).toBe(404);
    });
  });

  describe("checking a package before its module is saved", () => {
    it("refuses every broken golf package with its own code and leaves nothing behind", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const broken: [string, ErrorCode, RegExp][] = [
        ["badscorm.zip", "modules.package_manifest_in_folder", /"badscorm\/"/],
        ["invalid.zip", "modules.package_no_manifest", /imsmanifest\.xml.*cmi5\.xml/],
        ["validscorm.zip", "modules.package_nothing_to_launch", /nothing to launch/],
        ["validaicc.zip", "modules.package_aicc", /AICC.*not support/],
        ["singlescobasic_missingorg.zip", "modules.package_no_organization", /no organization/],
      ];
      const paths: string[] = [];
      for (const [file, code, words] of broken) {
        const { response, path } = await addPackage(cookie, course.id, golfPackage(file));
        paths.push(path);
        expect(response.statusCode, file).toBe(400);
        const body = expectFieldRefused(response, "packagePath");
        expect(body.code, file).toBe(code);
        expect(body.message, file).toMatch(words);
      }
      expect(new Set(broken.map(([, code]) => code)).size).toBe(broken.length);
      await expectNothingLeft(paths);
    });

    it("accepts the golf packages: SCORM 1.2 with one SCO and with many, and SCORM 2004", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const good: [
        string,
        PackageSummary["standard"],
        string,
        number,
        PackageSummary["items"][0],
      ][] = [
        [
          "singlesco_scorm12.zip",
          "scorm12",
          "Golf Explained - CP Single SCO",
          1,
          { id: "item_1", title: "Golf Explained" },
        ],
        [
          "RuntimeMinimumCalls_SCORM12.zip",
          "scorm12",
          "Golf Explained - Minimum Run-time Calls",
          18,
          { id: "playing_playing_item", title: "How to Play" },
        ],
        [
          "RuntimeBasicCalls_SCORM20043rdEdition.zip",
          "scorm2004",
          "Golf Explained - Run-time Basic Calls",
          1,
          { id: "item_1", title: "Golf Explained" },
        ],
      ];
      for (const [n, [file, standard, title, count, first]] of good.entries()) {
        const { response } = await addPackage(cookie, course.id, golfPackage(file), "scorm", n);
        expect(response.statusCode, `${file} ${response.body}`).toBe(201);
        const module = response.json();
        expect(module, file).toMatchObject({
          id: moduleId(n),
          kind: "scorm",
          videoUrl: "",
          videoSeconds: null,
          package: { standard, title },
        });
        expect(module.package.items, file).toHaveLength(count);
        expect(module.package.items[0], file).toEqual(first);
      }

      const shown = await call(ctx, "GET", `/api/courses/${course.id}`, { cookie });
      expect(shown.statusCode).toBe(200);
      const { modules: listed } = shown.json() as Course;
      expect(listed.map((m) => [m.kind, m.package?.standard])).toEqual([
        ["scorm", "scorm12"],
        ["scorm", "scorm12"],
        ["scorm", "scorm2004"],
      ]);

      // The multi-SCO package: every item launches its own page, a quiz with its parameters.
      const multi = await packageRow(await packageIdOf(course.id, moduleId(1)));
      expect(multi).toMatchObject({ status: "ready", standard: "scorm12", version: "1.2" });
      const quiz = multi.items.find((i) => i.id === "playing_quiz_item");
      expect(quiz).toMatchObject({
        title: "Playing Golf Quiz",
        launch: { file: "shared/assessmenttemplate.html", query: "?questions=Playing" },
        scormType: "sco",
        parameters: "?questions=Playing",
      });
      expect(multi.structure).toMatchObject({
        organizationId: "golf_sample_default_org",
        outline: [
          expect.objectContaining({
            id: "playing_item",
            title: "Playing the Game",
            launches: false,
          }),
          expect.objectContaining({ id: "etiquette_item" }),
          expect.objectContaining({ id: "handicapping_item" }),
          expect.objectContaining({ id: "havingfun_item" }),
        ],
      });
      // Its files are in the store, under the package's own prefix.
      for (const item of multi.items) {
        if (!("query" in item.launch)) throw new Error("a SCORM item launches a file");
        expect(await readStored(multi.id, item.launch.file)).toMatch(/<html/i);
      }
      expect(await storedPackages()).toHaveLength(3);
    });

    it("accepts the cmi5 examples with their AUs and what the LMS decides by", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const examples: [string, string, number][] = [
        ["single_au_basic_responsive.zip", "Introduction to Geology - Responsive Style", 1],
        [
          "masteryscore_responsive.zip",
          "Introduction to Geology - Responsive Style - Mastery Score",
          1,
        ],
        ["multi_au_framed.zip", "Introduction to Geology - Multi AU at Root", 8],
        ["pre_post_test_framed.zip", "Introduction to Geology - Pre/Post Test", 6],
      ];
      for (const [n, [file, title, count]] of examples.entries()) {
        const { response } = await addPackage(cookie, course.id, cmi5Package(file), "cmi5", n);
        expect(response.statusCode, `${file} ${response.body}`).toBe(201);
        expect(response.json(), file).toMatchObject({
          kind: "cmi5",
          package: { standard: "cmi5", title },
        });
        expect(response.json().package.items, file).toHaveLength(count);
      }
      const multi = (await call(ctx, "GET", `/api/courses/${course.id}`, { cookie })).json()
        .modules[2] as Course["modules"][0];
      expect(multi.package?.items.at(-1)).toEqual({
        id: "https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro-multi-au-framed/quiz",
        title: "Quiz",
      });

      const mastery = await packageRow(await packageIdOf(course.id, moduleId(1)));
      expect(mastery.items[0]).toMatchObject({
        id: "https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro-single-au-mastery-score-responsive/1",
        moveOn: "CompletedOrPassed",
        masteryScore: 0.3,
        launchMethod: "OwnWindow",
        launch: { file: "index.html", query: "" },
      });
      expect(mastery.structure).toMatchObject({
        courseId:
          "https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro-single-au-mastery-score-responsive",
      });
      const prePost = await packageRow(await packageIdOf(course.id, moduleId(3)));
      expect(prePost.items.map((au) => ("moveOn" in au ? au.moveOn : null))).toEqual([
        "Passed",
        "CompletedOrPassed",
        "Passed",
        "Passed",
        "CompletedOrPassed",
        "Passed",
      ]);
      expect(prePost.items[1]).toMatchObject({
        launch: { file: "index.html", query: "?pages=1" },
        launchMethod: "AnyWindow",
        blocks: ["https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro-preposttest/block1"],
      });
    });

    it("refuses a package of the other kind, and keeps the upload for the right one", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const { response, path } = await addPackage(
        cookie,
        course.id,
        cmi5Package("single_au_basic_responsive.zip"),
        "scorm",
      );
      expect(response.statusCode).toBe(400);
      const body = expectFieldRefused(response, "packagePath");
      expect(body.code).toBe("modules.package_kind_mismatch");
      expect(body.message).toMatch(/cmi5 package, not a SCORM one/);
      expect(await isStored(ctx, path)).toBe(true);
      expect(await storedPackages()).toEqual([]);

      const right = await postModule(ctx, cookie, course.id, packageBody(path, "cmi5"));
      expect(right.statusCode).toBe(201);
      // Once unpacked, the same upload is still refused as the other kind.
      const again = await postModule(ctx, cookie, course.id, packageBody(path, "scorm", 2));
      expect(expectFieldRefused(again, "packagePath").code).toBe("modules.package_kind_mismatch");
    });

    it("refuses what is not a ready package upload", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const video = await uploadObject(ctx, cookie, { kind: "video" });
      for (const packagePath of [video, "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA"]) {
        const response = await postModule(
          ctx,
          cookie,
          course.id,
          packageBody(packagePath, "scorm"),
        );
        expect(response.statusCode).toBe(400);
        expect(expectFieldRefused(response, "packagePath").code).toBe(
          "modules.package_not_uploaded",
        );
      }
      // Nor is a package a video.
      const path = await uploadPackage(cookie, golfPackage("singlesco_scorm12.zip"));
      const asVideo = await postModule(ctx, cookie, course.id, {
        ...packageBody(path, "scorm"),
        kind: "video",
        packagePath: undefined,
        videoUrl: path,
      });
      expect(expectFieldRefused(asVideo, "videoUrl").code).toBe("courses.video_not_uploaded");
    });

    it("refuses a file that is not a zip, whole or cut short", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const zip = golfPackage("singlesco_scorm12.zip");
      const paths: string[] = [];
      for (const bytes of [fixture("sample-thumbnail.png"), zip.subarray(0, zip.length / 2)]) {
        const { response, path } = await addPackage(cookie, course.id, bytes);
        paths.push(path);
        expect(response.statusCode).toBe(400);
        const body = expectFieldRefused(response, "packagePath");
        expect(body.code).toBe("modules.package_not_zip");
        expect(body.message).toMatch(/not a zip archive/);
      }
      await expectNothingLeft(paths);
    });

    it("refuses names and launch addresses that leave the package (zip slip)", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const escapes = [
        "../escaped.html",
        "lesson/../../escaped.html",
        "lesson\\..\\..\\escaped.html",
        "/tmp/escaped.html",
        "C:\\escaped.html",
      ];
      const paths: string[] = [];
      for (const name of escapes) {
        const bytes = scormZip([{ name, data: "<script>pwned()</script>" }]);
        const { response, path } = await addPackage(cookie, course.id, bytes);
        paths.push(path);
        expect(response.statusCode, name).toBe(400);
        const body = expectFieldRefused(response, "packagePath");
        expect(body.code, name).toBe("modules.package_unsafe_path");
        expect(body.message, name).toContain("escaped.html");
      }
      for (const href of ["../outside.html", "/index.html", "https://evil.example/x.html"]) {
        const { response, path } = await addPackage(cookie, course.id, scormZip([], href));
        paths.push(path);
        expect(expectFieldRefused(response, "packagePath").code, href).toBe(
          "modules.package_unsafe_path",
        );
      }
      await expectNothingLeft(paths);
      expect(existsSync(join(ctx.dataDir, "escaped.html"))).toBe(false);
      expect(existsSync(join(ctx.dataDir, "objects", "escaped.html"))).toBe(false);
      expect(existsSync(join(ctx.dataDir, "objects", "packages", "escaped.html"))).toBe(false);
    });

    it("refuses a launch file the package does not have, naming it", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const missing = makeZip([
        { name: "imsmanifest.xml", data: scormManifest("Shared/Launch.html") },
        { name: "shared/launch.html", data: "<html></html>" },
      ]);
      const { response, path } = await addPackage(cookie, course.id, missing);
      const body = expectFieldRefused(response, "packagePath");
      expect(body.code).toBe("modules.package_launch_missing");
      expect(body.message).toMatch(/"Shared\/Launch\.html".*"shared\/launch\.html"/);
      await expectNothingLeft([path]);
    });

    it("refuses zip bombs: by their central directory, and by the bytes they really inflate to", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const paths: string[] = [];
      // Sizes declared past the limit: refused before anything is inflated.
      const declared = scormZip([
        { name: "media/a.mp4", data: "x", declaredSize: 1_500_000_000 },
        { name: "media/b.mp4", data: "x", declaredSize: 1_500_000_000 },
      ]);
      // Sizes declared small that inflate to far more: caught while inflating, after the
      // files before it were written, which go too.
      const lying = scormZip([
        { name: "a.html", data: "<html></html>" },
        { name: "bomb.bin", data: Buffer.alloc(8 * 1_048_576), declaredSize: 1024 },
      ]);
      for (const bytes of [declared, lying]) {
        const { response, path } = await addPackage(cookie, course.id, bytes);
        paths.push(path);
        const body = expectFieldRefused(response, "packagePath");
        expect(body.code).toBe("modules.package_too_large");
        expect(body.message).toMatch(/2,048 MB/);
      }
      const many = makeZip([
        { name: "imsmanifest.xml", data: scormManifest("index.html") },
        ...Array.from({ length: PACKAGE_MAX_ENTRIES }, (_, i) => ({
          name: `f/${i}.txt`,
          method: "store" as const,
        })),
      ]);
      const { response, path } = await addPackage(cookie, course.id, many);
      paths.push(path);
      const body = expectFieldRefused(response, "packagePath");
      expect(body.code).toBe("modules.package_too_many_files");
      expect(body.message).toMatch(/more than 20,000 files/);
      await expectNothingLeft(paths);
    });
  });

  describe("a package module in its course", () => {
    it("is refused 'Mark as Complete' with 409: its content reports completion", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const { response } = await addPackage(cookie, course.id, golfPackage("singlescobasic.zip"));
      expect(response.statusCode).toBe(201);
      await publish(ctx, cookie, course.id);
      const learner = await quickLearner(ctx);
      await enrollViaApi(ctx, cookie, learner.id, course.id);
      const learnerCookie = await signInAs(ctx, learner);
      const marked = await postProgress(ctx, learnerCookie, {
        userId: learner.id,
        courseId: course.id,
        moduleId: moduleId(1),
      });
      expect(marked.statusCode).toBe(409);
      const body = expectErrorBody(marked);
      expect(body.code).toBe("modules.package_reports_completion");
      expect(body.message).toMatch(/complete when its content reports it/);
      // Nor does a video player's heartbeat count for it: the package player measures it.
      const beat = await call(ctx, "POST", "/api/progress/heartbeat", {
        cookie: learnerCookie,
        payload: {
          courseId: course.id,
          moduleId: moduleId(1),
          intervals: [],
          position: 0,
          duration: 60,
        },
      });
      expect(beat.statusCode).toBe(409);
      expect(expectErrorBody(beat).code).toBe("watching.not_a_video");
      const [enrollment] = await ctx.database.db.select().from(enrollments);
      expect(enrollment).toMatchObject({ progress: 0, isCompleted: false });
    });

    it("is published like any module, and a published course takes one", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const { response } = await addPackage(cookie, course.id, golfPackage("singlescobasic.zip"));
      expect(response.statusCode).toBe(201);
      const review = await call(ctx, "GET", `/api/courses/${course.id}/publish-checks`, { cookie });
      expect(review.json().checks).toEqual([]);
      await publish(ctx, cookie, course.id);
      const again = await uploadPackage(cookie, golfPackage("singlescobasic.zip"));
      const added = await postModule(ctx, cookie, course.id, packageBody(again, "scorm", 2));
      expect(added.statusCode).toBe(201);
      expect(await ctx.database.db.select().from(modules)).toHaveLength(2);
    });

    it("shares one package between modules of one upload, and removes it with the last", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const { response, path } = await addPackage(
        cookie,
        course.id,
        golfPackage("RuntimeMinimumCalls_SCORM12-mini.zip"),
      );
      expect(response.statusCode).toBe(201);
      const second = await postModule(ctx, cookie, course.id, packageBody(path, "scorm", 2));
      expect(second.statusCode).toBe(201);
      const [first, other] = [
        await packageIdOf(course.id, moduleId(1)),
        await packageIdOf(course.id, moduleId(2)),
      ];
      expect(first).toBe(other);
      expect(await storedPackages()).toEqual([first]);

      const remove = (n: number) =>
        call(ctx, "DELETE", `/api/courses/${course.id}/modules/${moduleId(n)}`, { cookie });
      expect((await remove(1)).statusCode).toBe(200);
      expect(await storedPackages()).toEqual([first]);
      expect((await remove(2)).statusCode).toBe(200);
      expect(await storedPackages()).toEqual([]);
      expect(await ctx.database.db.select().from(contentPackages)).toEqual([]);
      expect(await isStored(ctx, path)).toBe(false);
    });

    it("changes a module from a video to a package and back, removing what it no longer plays", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const video = await uploadObject(ctx, cookie, { kind: "video" });
      const videoModule = {
        id: moduleId(1),
        title: "Lesson",
        description: "",
        duration: 5,
        videoUrl: video,
      };
      expect((await postModule(ctx, cookie, course.id, videoModule)).statusCode).toBe(201);
      const path = await uploadPackage(cookie, golfPackage("singlesco_scorm12.zip"));
      const put = (body: object) =>
        call(ctx, "PUT", `/api/courses/${course.id}/modules/${moduleId(1)}`, {
          cookie,
          payload: body,
        });
      const toPackage = await put(packageBody(path, "scorm"));
      expect(toPackage.statusCode).toBe(200);
      expect(toPackage.json()).toMatchObject({ kind: "scorm", videoUrl: "", package: {} });
      expect(await isStored(ctx, video)).toBe(false);
      expect(await storedPackages()).toHaveLength(1);
      // An edit that keeps the package names no upload.
      const { packagePath: _kept, ...renamed } = { ...packageBody(path, "scorm"), title: "Golf" };
      const kept = await put(renamed);
      expect(kept.statusCode).toBe(200);
      expect(kept.json()).toMatchObject({ title: "Golf", kind: "scorm", package: { items: [{}] } });
      expect(expectFieldRefused(await put({ ...renamed, kind: "cmi5" }), "packagePath").code).toBe(
        "modules.package_not_uploaded",
      );

      const otherVideo = await uploadObject(ctx, cookie, { kind: "video" });
      const toVideo = await put({ ...videoModule, kind: "video", videoUrl: otherVideo });
      expect(toVideo.statusCode).toBe(200);
      expect(toVideo.json()).toMatchObject({ kind: "video", videoUrl: otherVideo });
      expect(toVideo.json().package).toBeUndefined();
      expect(await storedPackages()).toEqual([]);
      expect(await isStored(ctx, path)).toBe(false);
    });

    it("is removed after a day when its unpacking stopped halfway, never when ready", async () => {
      const now = new Date();
      const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
      const row = (status: "unpacking" | "ready", createdAt: Date) => ({
        sourcePath: "/objects/uploads/AAAAAAAAAAAAAAAAAAAAAAAA",
        status,
        standard: "scorm12" as const,
        version: "1.2",
        title: "Cut off",
        items: [],
        structure: {
          organizationId: "o",
          manifestId: null,
          outline: [],
          objectivesGlobalToSystem: true,
          sharedDataGlobalToSystem: true,
        },
        fileCount: 1,
        expandedBytes: 5,
        createdAt,
      });
      const inserted = await ctx.database.db
        .insert(contentPackages)
        .values([
          row("unpacking", hoursAgo(25)),
          row("unpacking", hoursAgo(1)),
          row("ready", hoursAgo(48)),
        ])
        .returning();
      for (const { id } of inserted) {
        await ctx.store.writePackageFile(id, "index.html", Readable.from([Buffer.from("<html>")]), {
          size: 6,
          contentType: "text/html",
        });
      }
      const sweeper = createPackagesSweeper({ db: ctx.database.db, store: ctx.store });
      expect(await sweeper.sweep({ now })).toBe(1);
      const [abandoned, recent, ready] = inserted.map((r) => r.id);
      expect((await storedPackages()).sort()).toEqual([recent, ready].sort());
      const left = await ctx.database.db.select({ id: contentPackages.id }).from(contentPackages);
      expect(left.map((r) => r.id).sort()).toEqual([recent, ready].sort());
      expect(left.map((r) => r.id)).not.toContain(abandoned);
    });

    it("goes with its course", async () => {
      const cookie = await admin();
      const course = await createCourse(ctx, cookie);
      const { response, path } = await addPackage(
        cookie,
        course.id,
        cmi5Package("single_au_basic_responsive.zip"),
        "cmi5",
      );
      expect(response.statusCode).toBe(201);
      const deleted = await call(ctx, "DELETE", `/api/courses/${course.id}`, { cookie });
      expect(deleted.statusCode).toBe(200);
      await expectNothingLeft([path]);
    });
  });
});
