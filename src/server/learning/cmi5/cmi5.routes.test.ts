import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { EnrollmentWithRelations } from "../../../contract";
import {
  type Cmi5Setup,
  cmi5Course,
  cmi5Zip,
  launch,
  statementsOf,
  TestAuClient,
  VERB,
} from "../../testing/cmi5";
import { expectErrorBody } from "../../testing/errors";
import { call, enrollViaApi, quickLearner, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { cmi5Package } from "../../testing/zips";
import { packageAttempts, packageItemStates } from "../package-runs/package-runs.table";
import { cmi5Statements, cmi5States } from "./cmi5.table";

describe("the portal as a cmi5 LMS", () => {
  const ctx = useTestApp();

  async function launched(
    setup: Cmi5Setup,
    auIndex = 0,
    options: { cookie?: string; launchMode?: string } = {},
  ) {
    const response = await launch(ctx, setup, options.cookie ?? setup.learnerCookie, {
      auId: setup.auIds[auIndex]!,
      ...(options.launchMode ? { launchMode: options.launchMode } : {}),
    });
    expect(response.statusCode, response.body).toBe(200);
    return new TestAuClient(ctx, response.json().url);
  }

  async function enrollment(setup: Cmi5Setup) {
    const response = await call(ctx, "GET", `/api/enrollments/user/${setup.learner.id}`, {
      cookie: setup.learnerCookie,
    });
    return (response.json() as EnrollmentWithRelations[]).find(
      (e) => e.courseId === setup.course.id,
    )!;
  }

  const countStatements = async () => (await ctx.database.db.select().from(cmi5Statements)).length;

  async function attemptOf(registration: string) {
    const [row] = await ctx.database.db
      .select()
      .from(packageAttempts)
      .where(eq(packageAttempts.registration, registration));
    return row!;
  }

  describe("launching a cmi5 AU", () => {
    it("answers the AU's address on the content origin with the cmi5 launch parameters", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const statusUrl = `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`;
      const before = await call(ctx, "GET", statusUrl, { cookie: setup.learnerCookie });
      expect(before.json()).toMatchObject({
        registration: null,
        satisfied: false,
        moduleCompleted: false,
        aus: [{ id: setup.auIds[0], launched: false, satisfied: false }],
      });
      const response = await launch(ctx, setup, setup.learnerCookie, { auId: setup.auIds[0]! });
      expect(response.statusCode).toBe(200);
      const { url, launchMethod } = response.json();
      const after = await call(ctx, "GET", statusUrl, { cookie: setup.learnerCookie });
      expect(after.json().aus[0]).toMatchObject({ launched: true, satisfied: false });
      expect(launchMethod).toBe("AnyWindow");
      const parsed = new URL(url);
      // The test portal is http://localhost:5000; its content, the other loopback name.
      const contentOrigin = "http://127.0.0.1:5001";
      expect(parsed.origin).toBe(contentOrigin);
      expect(parsed.pathname).toMatch(/^\/p\/[^/]+\/index\.html$/);
      expect(parsed.searchParams.get("endpoint")).toBe(`${contentOrigin}/xapi`);
      expect(parsed.searchParams.get("fetch")).toMatch(new RegExp(`^${contentOrigin}/cmi5/fetch/`));
      expect(JSON.parse(parsed.searchParams.get("actor")!)).toEqual({
        objectType: "Agent",
        account: { homePage: "http://localhost:5000", name: setup.learner.id },
      });
      const au = new TestAuClient(ctx, url);
      expect(au.registration).toMatch(/^[0-9a-f-]{36}$/);
      // The LMS's own activity id, never the publisher's (cmi5 8.1.5).
      expect(au.activityId).not.toBe(setup.auIds[0]);

      // The AU's files are served where the URL points.
      const page = await ctx.app.content.inject({ method: "GET", url: parsed.pathname });
      expect(page.statusCode).toBe(200);

      await au.start();
      expect(au.launchData).toMatchObject({
        launchMode: "Normal",
        moveOn: "CompletedOrPassed",
        returnURL: `${contentOrigin}/cmi5/returned`,
        contextTemplate: {
          contextActivities: { grouping: [{ id: setup.auIds[0] }] },
          extensions: { "https://w3id.org/xapi/cmi5/context/extensions/sessionid": au.sessionId },
        },
      });
      const [first] = await statementsOf(ctx, setup.adminCookie, au.registration);
      expect(first).toMatchObject({
        actor: au.actor,
        verb: { id: VERB.launched },
        object: { id: au.activityId },
        context: {
          registration: au.registration,
          contextActivities: {
            category: [{ id: "https://w3id.org/xapi/cmi5/context/categories/cmi5" }],
          },
          extensions: {
            "https://w3id.org/xapi/cmi5/context/extensions/sessionid": au.sessionId,
            "https://w3id.org/xapi/cmi5/context/extensions/launchmode": "Normal",
            "https://w3id.org/xapi/cmi5/context/extensions/moveon": "CompletedOrPassed",
          },
        },
      });
      // The stored launch URL carries no fetch token.
      const launchUrl =
        first!.context.extensions["https://w3id.org/xapi/cmi5/context/extensions/launchurl"];
      expect(launchUrl).not.toContain("fetch");
    });

    it("keeps one registration across launches, and refuses what a learner may not launch", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("multi_au_framed.zip"));
      const first = await launched(setup, 0);
      const second = await launched(setup, 1);
      expect(second.registration).toBe(first.registration);
      expect(second.activityId).not.toBe(first.activityId);

      const unknown = await launch(ctx, setup, setup.learnerCookie, {
        auId: "https://example.com/none",
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe("cmi5.au_not_found");
      const stranger = await signInAs(ctx, await quickLearner(ctx));
      const notEnrolled = await launch(ctx, setup, stranger, { auId: setup.auIds[0]! });
      expect(notEnrolled.statusCode).toBe(403);
      expect(notEnrolled.json().code).toBe("enrollments.not_enrolled");
      const strangerStatus = await call(
        ctx,
        "GET",
        `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`,
        { cookie: stranger },
      );
      expect(strangerStatus.statusCode).toBe(403);
      const asAdmin = await launch(ctx, setup, setup.adminCookie, { auId: setup.auIds[0]! });
      expect(asAdmin.statusCode).toBe(403);
      const noModule = await call(
        ctx,
        "POST",
        `/api/courses/${setup.course.id}/modules/module_1/cmi5/launch`,
        {
          cookie: setup.learnerCookie,
          payload: { auId: setup.auIds[0] },
        },
      );
      expect(noModule.statusCode).toBe(404);
      expect(noModule.json().code).toBe("courses.module_not_found");
      const noCourse = await call(
        ctx,
        "POST",
        `/api/courses/nope/modules/${setup.moduleId}/cmi5/launch`,
        {
          cookie: setup.learnerCookie,
          payload: { auId: setup.auIds[0] },
        },
      );
      expect(noCourse.statusCode).toBe(404);
    });

    it("refuses a locked module, and a module that is not cmi5", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      // A second cmi5 module and a video module after the first: both locked until it completes.
      const { uploadObject } = await import("../../testing/uploads");
      const path = await uploadObject(ctx, setup.adminCookie, {
        kind: "package",
        bytes: cmi5Zip([{ id: "https://example.com/au/x" }]),
      });
      const added = await call(ctx, "POST", `/api/courses/${setup.course.id}/modules`, {
        cookie: setup.adminCookie,
        payload: {
          id: "module_1700000000002",
          title: "Second",
          description: "",
          duration: 5,
          kind: "cmi5",
          packagePath: path,
        },
      });
      expect(added.statusCode, added.body).toBe(201);
      const locked = await launch(
        ctx,
        { course: setup.course, moduleId: "module_1700000000002" },
        setup.learnerCookie,
        {
          auId: "https://example.com/au/x",
        },
      );
      expect(locked.statusCode).toBe(409);
      expect(locked.json().code).toBe("courses.module_locked");
      const video = await uploadObject(ctx, setup.adminCookie, { kind: "video" });
      await call(ctx, "POST", `/api/courses/${setup.course.id}/modules`, {
        cookie: setup.adminCookie,
        payload: {
          id: "module_1700000000003",
          title: "Video",
          description: "",
          duration: 5,
          videoUrl: video,
        },
      });
      const status = await call(
        ctx,
        "GET",
        `/api/courses/${setup.course.id}/modules/module_1700000000003/cmi5`,
        {
          cookie: setup.learnerCookie,
        },
      );
      expect(status.statusCode).toBe(404);
      expect(status.json().code).toBe("cmi5.not_cmi5_module");
    });
  });

  describe("the fetch URL", () => {
    it("answers the auth token once, then cmi5's error object", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const au = await launched(setup);
      const first = await au.fetchToken();
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-type"]).toMatch(/^application\/json/);
      expect(first.json()["auth-token"]).toEqual(expect.any(String));
      const again = await au.fetchToken();
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual({ "error-code": "1", "error-text": expect.any(String) });
      const forged = await ctx.app.content.inject({ method: "POST", url: "/cmi5/fetch/forged" });
      expect(forged.json()["error-code"]).toBe("3");
      expect(forged.json()["auth-token"]).toBeUndefined();
    });
  });

  describe("statements an AU sends", () => {
    it("are checked by the cmi5 rules, and a refused one changes nothing", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("masteryscore_responsive.zip"));
      const au = await launched(setup);
      // Before the token: a made-up one is not a credential.
      au.auth = "Basic Y2F0YXB1bHQ6ZmlyZQ==";
      expect((await au.send(au.statement("initialized"))).statusCode).toBe(401);
      await au.fetchToken().then((r) => {
        au.auth = `Basic ${r.json()["auth-token"]}`;
      });
      const data = await au.xapi("GET", "activities/state", {
        query: au.stateQuery("LMS.LaunchData"),
      });
      au.launchData = data.json();
      // Initialized before the learner preferences were read: refused (cmi5 11).
      expect((await au.send(au.statement("initialized"))).statusCode).toBe(403);
      await au.xapi("GET", "agents/profile", {
        query: { profileId: "cmi5LearnerPreferences", agent: JSON.stringify(au.actor) },
      });
      const before = await countStatements();
      // Not initialized yet: nothing else is accepted first.
      expect((await au.send(au.statement("experienced"))).statusCode).toBe(403);
      await au.sendOk("initialized");

      const mastery = au.launchData.masteryScore as number;
      const refusals: [string, Record<string, unknown>, number][] = [
        ["initialized twice", au.statement("initialized"), 403],
        ["no timestamp", { ...au.statement("experienced"), timestamp: undefined }, 403],
        [
          "non-UTC timestamp",
          { ...au.statement("experienced"), timestamp: "2026-01-01T10:00:00-06:00" },
          403,
        ],
        [
          "another actor",
          { ...au.statement("experienced"), actor: { mbox: "mailto:x@example.com" } },
          403,
        ],
        [
          "wrong object",
          { ...au.statement("passed"), object: { id: "https://example.com/other" } },
          403,
        ],
        [
          "no session id",
          { ...au.statement("experienced"), context: { registration: au.registration } },
          403,
        ],
        [
          "another registration",
          (() => {
            const st = au.statement("experienced");
            (st.context as Record<string, unknown>).registration =
              "ccaf384c-f8d4-4e7a-8304-49af58f0b176";
            return st;
          })(),
          403,
        ],
        [
          "completed with success",
          au.statement("completed", {
            result: { completion: true, success: true, duration: "PT1S" },
          }),
          403,
        ],
        [
          "completed without duration",
          au.statement("completed", { result: { completion: true } }),
          403,
        ],
        [
          "passed below mastery",
          au.statement("passed", {
            result: { success: true, duration: "PT1S", score: { scaled: mastery - 0.01 } },
          }),
          403,
        ],
        [
          "failed at mastery",
          au.statement("failed", {
            result: { success: false, duration: "PT1S", score: { scaled: mastery } },
          }),
          403,
        ],
        [
          "raw without range",
          au.statement("passed", {
            result: { success: true, duration: "PT1S", score: { raw: 90 } },
          }),
          403,
        ],
        [
          "passed without moveOn category",
          (() => {
            const st = au.statement("passed");
            (
              st.context as { contextActivities: { category: unknown[] } }
            ).contextActivities.category.pop();
            return st;
          })(),
          403,
        ],
        [
          "voiding",
          {
            ...au.statement("experienced"),
            verb: { id: "http://adlnet.gov/expapi/verbs/voided" },
            object: { objectType: "StatementRef", id: au.statement("experienced").id },
          },
          403,
        ],
        [
          "satisfied, the LMS's verb",
          { ...au.statement("experienced"), verb: { id: VERB.satisfied } },
          403,
        ],
        ["no verb", { ...au.statement("experienced"), verb: undefined }, 400],
        [
          "a bad duration",
          au.statement("completed", { result: { completion: true, duration: "5 seconds" } }),
          400,
        ],
      ];
      for (const [what, statement, status] of refusals) {
        const response = await au.send(JSON.parse(JSON.stringify(statement)));
        expect(response.statusCode, `${what}: ${response.body}`).toBe(status);
      }
      const notJson = await au.xapi("POST", "statements", {
        body: "not json",
        headers: { "content-type": "application/json" },
      });
      expect(notJson.statusCode).toBe(400);
      const noVersion = await au.xapi("POST", "statements", {
        body: au.statement("experienced"),
        headers: { "x-experience-api-version": "" },
      });
      expect(noVersion.statusCode).toBe(400);
      // Only the initialized statement was stored meanwhile.
      expect(await countStatements()).toBe(before + 1);

      // A POSTed batch is stored whole or not at all.
      const batch = await au.xapi("POST", "statements", {
        body: [
          au.statement("experienced"),
          { ...au.statement("experienced"), timestamp: undefined },
        ],
      });
      expect(batch.statusCode).toBe(403);
      expect(await countStatements()).toBe(before + 1);
      const ok = await au.xapi("POST", "statements", {
        body: [au.statement("experienced"), au.statement("experienced")],
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toHaveLength(2);
      // The same statement again is the same statement; another with its id is a conflict.
      const same = au.statement("experienced");
      expect((await au.send(same)).statusCode).toBe(204);
      expect((await au.send(same)).statusCode).toBe(204);
      expect(
        (await au.send({ ...same, verb: { id: "http://adlnet.gov/expapi/verbs/attempted" } }))
          .statusCode,
      ).toBe(409);
      const got = await au.xapi("GET", "statements", { query: { statementId: same.id } });
      expect(got.json()).toMatchObject({ id: same.id, stored: expect.any(String) });

      await au.sendOk("passed", {
        result: { success: true, duration: "PT9S", score: { scaled: mastery } },
      });
      expect(
        (
          await au.send(
            au.statement("passed", {
              result: { success: true, duration: "PT1S", score: { scaled: 1 } },
            }),
          )
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await au.send(
            au.statement("failed", {
              result: { success: false, duration: "PT1S", score: { scaled: 0 } },
            }),
          )
        ).statusCode,
      ).toBe(403);
      await au.sendOk("terminated");
      // The session is over: its token is no longer a credential.
      expect((await au.send(au.statement("experienced"))).statusCode).toBe(401);
      expect(
        (await au.xapi("GET", "activities/state", { query: au.stateQuery("LMS.LaunchData") }))
          .statusCode,
      ).toBe(401);
    });

    it("are refused when nested past any statement's need, never a crash", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const au = await (await launched(setup)).start();
      await au.sendOk("initialized");
      const before = await countStatements();
      const statement = JSON.stringify(
        au.statement("experienced", { result: { extensions: { "https://example.com/x": 0 } } }),
      ).replace("0}}", `${"[".repeat(5_000)}${"]".repeat(5_000)}}}`);
      const deep = await au.xapi("POST", "statements", {
        body: statement,
        headers: { "content-type": "application/json" },
      });
      expect([deep.statusCode, expectErrorBody(deep).code]).toEqual([400, "xapi.invalid_request"]);
      expect(await countStatements()).toBe(before);
    });

    it("are refused in a Browse launch when they judge, and once per registration", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const browse = await (await launched(setup, 0, { launchMode: "Browse" })).start();
      expect(browse.launchData.launchMode).toBe("Browse");
      await browse.sendOk("initialized");
      expect((await browse.send(browse.statement("completed"))).statusCode).toBe(403);
      await browse.sendOk("terminated");

      const first = await (await launched(setup)).start();
      await first.sendOk("initialized");
      await first.sendOk("completed");
      await first.sendOk("terminated");
      const second = await (await launched(setup)).start();
      expect(second.registration).toBe(first.registration);
      await second.sendOk("initialized");
      expect((await second.send(second.statement("completed"))).statusCode).toBe(403);
    });
  });

  describe("scoping to the learner and the registration", () => {
    it("refuses another learner's registration, agent and statements", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const mine = await (await launched(setup)).start();
      await mine.sendOk("initialized");
      const put = await mine.xapi("PUT", "activities/state", {
        query: mine.stateQuery("bookmark"),
        body: { page: 3 },
      });
      expect(put.statusCode).toBe(204);

      const other = await quickLearner(ctx);
      await enrollViaApi(ctx, setup.adminCookie, other.id, setup.course.id);
      const theirs = await (
        await launched(setup, 0, { cookie: await signInAs(ctx, other) })
      ).start();
      expect(theirs.registration).not.toBe(mine.registration);
      const rows = (await ctx.database.db.select().from(cmi5States)).length;

      // Their token with my registration, or my agent: refused, and nothing read or written.
      const asMe = { ...mine.stateQuery("bookmark") };
      expect((await theirs.xapi("GET", "activities/state", { query: asMe })).statusCode).toBe(403);
      expect(
        (
          await theirs.xapi("GET", "activities/state", {
            query: { ...asMe, agent: JSON.stringify(theirs.actor) },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await theirs.xapi("PUT", "activities/state", {
            query: { ...asMe, agent: JSON.stringify(theirs.actor) },
            body: { page: 0 },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await theirs.xapi("DELETE", "activities/state", {
            query: { ...asMe, agent: JSON.stringify(theirs.actor) },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await theirs.xapi("GET", "agents/profile", {
            query: { profileId: "cmi5LearnerPreferences", agent: JSON.stringify(mine.actor) },
          })
        ).statusCode,
      ).toBe(403);
      const spoof = theirs.statement("initialized");
      spoof.actor = mine.actor;
      expect((await theirs.send(spoof)).statusCode).toBe(403);
      const myStatements = await statementsOf(ctx, setup.adminCookie, mine.registration);
      expect(
        (await theirs.xapi("GET", "statements", { query: { statementId: myStatements[0]!.id } }))
          .statusCode,
      ).toBe(404);
      expect(
        (await theirs.xapi("GET", "statements", { query: { registration: mine.registration } }))
          .statusCode,
      ).toBe(403);
      expect((await ctx.database.db.select().from(cmi5States)).length).toBe(rows);
      const read = await mine.xapi("GET", "activities/state", {
        query: mine.stateQuery("bookmark"),
      });
      expect(read.json()).toEqual({ page: 3 });

      // A learner cannot read the administrators' statements route.
      const asLearner = await call(
        ctx,
        "GET",
        `/api/admin/cmi5/statements?registration=${mine.registration}`,
        { cookie: setup.learnerCookie },
      );
      expect(asLearner.statusCode).toBe(403);
      const bad = await call(ctx, "GET", "/api/admin/cmi5/statements?registration=nope", {
        cookie: setup.adminCookie,
      });
      expect(bad.statusCode).toBe(400);
    });
  });

  describe("the state and agent profile resources", () => {
    it("keep an AU's documents, and LMS.LaunchData is the LMS's alone", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const au = await (await launched(setup)).start();
      const q = au.stateQuery("suspendData");
      expect((await au.xapi("GET", "activities/state", { query: q })).statusCode).toBe(404);
      expect(
        (await au.xapi("PUT", "activities/state", { query: q, body: { a: 1 } })).statusCode,
      ).toBe(204);
      const merged = await au.xapi("POST", "activities/state", { query: q, body: { b: 2 } });
      expect(merged.statusCode, merged.body).toBe(204);
      expect((await au.xapi("GET", "activities/state", { query: q })).json()).toEqual({
        a: 1,
        b: 2,
      });
      const text = await au.xapi("PUT", "activities/state", {
        query: au.stateQuery("notes"),
        body: "plain words",
        headers: { "content-type": "text/plain" },
      });
      expect(text.statusCode).toBe(204);
      const notes = await au.xapi("GET", "activities/state", { query: au.stateQuery("notes") });
      expect(notes.headers["content-type"]).toMatch(/^text\/plain/);
      expect(notes.body).toBe("plain words");
      const { stateId: _s, ...all } = q;
      expect((await au.xapi("GET", "activities/state", { query: all })).json()).toEqual([
        "LMS.LaunchData",
        "notes",
        "suspendData",
      ]);
      const launchData = au.stateQuery("LMS.LaunchData");
      expect(
        (await au.xapi("PUT", "activities/state", { query: launchData, body: { test: true } }))
          .statusCode,
      ).toBe(403);
      expect((await au.xapi("DELETE", "activities/state", { query: launchData })).statusCode).toBe(
        403,
      );
      expect((await au.xapi("DELETE", "activities/state", { query: all })).statusCode).toBe(204);
      expect((await au.xapi("GET", "activities/state", { query: all })).json()).toEqual([
        "LMS.LaunchData",
      ]);
      expect(
        (await au.xapi("GET", "activities/state", { query: { ...q, activityId: "" } })).statusCode,
      ).toBe(400);

      const prefs = { profileId: "cmi5LearnerPreferences", agent: JSON.stringify(au.actor) };
      expect(
        (
          await au.xapi("PUT", "agents/profile", {
            query: prefs,
            body: { languagePreference: "en-US,fr-FR", audioPreference: "on" },
          })
        ).statusCode,
      ).toBe(204);
      expect((await au.xapi("GET", "agents/profile", { query: prefs })).json()).toEqual({
        languagePreference: "en-US,fr-FR",
        audioPreference: "on",
      });
      for (const body of [
        { languagePreference: "not comma separated", audioPreference: "on" },
        { languagePreference: "", audioPreference: "on" },
        { languagePreference: "en-US" },
        { audioPreference: "off" },
      ]) {
        expect((await au.xapi("PUT", "agents/profile", { query: prefs, body })).statusCode).toBe(
          403,
        );
      }
      expect(
        (
          await au.xapi("PUT", "agents/profile", {
            query: prefs,
            body: "text",
            headers: { "content-type": "text/plain" },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await au.xapi("PUT", "agents/profile", {
            query: { profileId: "cmi5LearnerPreferences" },
            body: { audioPreference: "on" },
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (
          await au.xapi("PUT", "agents/profile", {
            query: { ...prefs, agent: JSON.stringify({ mbox: "mailto:a@example.com" }) },
            body: { a: 1 },
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await au.xapi("GET", "agents/profile", { query: { agent: prefs.agent } })).json(),
      ).toEqual(["cmi5LearnerPreferences"]);
      expect((await au.xapi("DELETE", "agents/profile", { query: prefs })).statusCode).toBe(204);
      expect((await au.xapi("GET", "agents/profile", { query: prefs })).statusCode).toBe(404);
      const about = await ctx.app.content.inject({ method: "GET", url: "/xapi/about" });
      expect(about.json()).toEqual({ version: ["1.0.3"] });
      expect(about.headers["x-experience-api-version"]).toBe("1.0.3");
    });
  });

  describe("moveOn", () => {
    it("completes a single-AU module when its AU completes", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const au = await (await launched(setup)).start();
      await au.sendOk("initialized");
      expect((await enrollment(setup)).completedModules).toEqual([]);
      await au.sendOk("completed");
      const statements = await statementsOf(ctx, setup.adminCookie, au.registration);
      expect(statements.map((s) => s.verb.id)).toEqual([
        VERB.launched,
        VERB.initialized,
        VERB.completed,
        VERB.satisfied,
      ]);
      expect(statements[3]).toMatchObject({
        object: { definition: { type: "https://w3id.org/xapi/cmi5/activitytype/course" } },
        context: {
          registration: au.registration,
          contextActivities: {
            grouping: [
              {
                id: "https://w3id.org/xapi/cmi5/catapult/lts/course/geology-intro-single-au-basic-responsive",
              },
            ],
          },
          extensions: { "https://w3id.org/xapi/cmi5/context/extensions/sessionid": au.sessionId },
        },
      });
      expect(statements[3]!.object.id).not.toBe(
        statements[3]!.context.contextActivities.grouping[0].id,
      );
      const attempt = await attemptOf(au.registration);
      expect(attempt.satisfiedAt).not.toBeNull();
      expect(attempt.completion).toBe("completed");
      const after = await enrollment(setup);
      expect(after.completedModules).toEqual([setup.moduleId]);
      expect(after.isCompleted).toBe(true);
      await au.sendOk("terminated");
      expect((await attemptOf(au.registration)).reportedSeconds).toBe(30);
      const status = await call(
        ctx,
        "GET",
        `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`,
        { cookie: setup.learnerCookie },
      );
      expect(status.json()).toMatchObject({
        registration: au.registration,
        satisfied: true,
        aus: [{ completed: true, satisfied: true }],
      });
    });

    it("takes an AU's requests one at a time: the same report sent twice at once counts once", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
      const au = await (await launched(setup)).start();
      await au.sendOk("initialized");
      const answers = await Promise.all([
        au.send(au.statement("completed")),
        au.send(au.statement("completed")),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([204, 403]);
      const verbs = (await statementsOf(ctx, setup.adminCookie, au.registration)).map(
        (s) => s.verb.id,
      );
      expect(verbs.filter((v) => v === VERB.satisfied)).toHaveLength(1);
      expect((await enrollment(setup)).completedModules).toEqual([setup.moduleId]);
    });

    it("completes a multi-AU module only once every AU met its own moveOn", async () => {
      const setup = await cmi5Course(ctx, cmi5Package("multi_au_framed.zip"));
      expect(setup.auIds).toHaveLength(8);
      for (let i = 0; i < 8; i++) {
        const au = await (await launched(setup, i)).start();
        await au.sendOk("initialized");
        await au.sendOk("completed");
        await au.sendOk("terminated");
      }
      // The quiz asks CompletedAndPassed: completed alone does not satisfy it.
      let status = (
        await call(ctx, "GET", `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`, {
          cookie: setup.learnerCookie,
        })
      ).json();
      expect(status.satisfied).toBe(false);
      expect(
        status.aus
          .filter((a: { satisfied: boolean }) => !a.satisfied)
          .map((a: { id: string }) => a.id),
      ).toEqual([setup.auIds[7]]);
      expect((await enrollment(setup)).completedModules).toEqual([]);

      const quiz = await (await launched(setup, 7)).start();
      await quiz.sendOk("initialized");
      await quiz.sendOk("failed", {
        result: { success: false, duration: "PT3S", score: { scaled: 0.2 } },
      });
      expect((await enrollment(setup)).completedModules).toEqual([]);
      await quiz.sendOk("terminated");
      const retry = await (await launched(setup, 7)).start();
      await retry.sendOk("initialized");
      await retry.sendOk("passed", {
        result: { success: true, duration: "PT3S", score: { scaled: 1 } },
      });
      status = (
        await call(ctx, "GET", `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5`, {
          cookie: setup.learnerCookie,
        })
      ).json();
      expect(status.satisfied).toBe(true);
      expect((await enrollment(setup)).completedModules).toEqual([setup.moduleId]);
      const satisfied = (await statementsOf(ctx, setup.adminCookie, quiz.registration)).filter(
        (s) => s.verb.id === VERB.satisfied,
      );
      expect(satisfied).toHaveLength(1);
      const items = await ctx.database.db.select().from(packageItemStates);
      expect(items.find((i) => i.itemId === setup.auIds[7])).toMatchObject({
        success: "passed",
        scoreScaled: 1,
      });
    });

    it("satisfies a block when its AUs are, then the course; NotApplicable AUs from the start", async () => {
      const zip = cmi5Zip(
        [
          { id: "https://example.com/test/au/1", moveOn: "Passed" },
          { id: "https://example.com/test/au/2", moveOn: "NotApplicable" },
          { id: "https://example.com/test/au/3", moveOn: "CompletedOrPassed" },
        ],
        [0, 0, -1],
      );
      const setup = await cmi5Course(ctx, zip);
      // The course structure lists the top AU before the block's.
      const at = (n: number) => setup.auIds.indexOf(`https://example.com/test/au/${n}`);
      const third = await (await launched(setup, at(3))).start();
      await third.sendOk("initialized");
      await third.sendOk("completed");
      let verbs = (await statementsOf(ctx, setup.adminCookie, third.registration)).map(
        (s) => s.verb.id,
      );
      expect(verbs).toEqual([VERB.launched, VERB.initialized, VERB.completed]);
      const first = await (await launched(setup, at(1))).start();
      await first.sendOk("initialized");
      await first.sendOk("passed");
      const statements = await statementsOf(ctx, setup.adminCookie, third.registration);
      verbs = statements.map((s) => s.verb.id);
      // The third AU's session was never terminated: abandoned at the next launch.
      expect(verbs).toEqual([
        VERB.launched,
        VERB.initialized,
        VERB.completed,
        VERB.abandoned,
        VERB.launched,
        VERB.initialized,
        VERB.passed,
        VERB.satisfied,
        VERB.satisfied,
      ]);
      expect(statements[3]).toMatchObject({
        object: { id: third.activityId },
        result: { duration: expect.stringMatching(/^PT/) },
        context: {
          extensions: {
            "https://w3id.org/xapi/cmi5/context/extensions/sessionid": third.sessionId,
          },
        },
      });
      expect(statements[7]!.object.definition.type).toBe(
        "https://w3id.org/xapi/cmi5/activitytype/block",
      );
      expect(statements[7]!.context.contextActivities.grouping).toEqual([
        { objectType: "Activity", id: "https://example.com/test/block/0" },
      ]);
      expect(statements[8]!.object.definition.type).toBe(
        "https://w3id.org/xapi/cmi5/activitytype/course",
      );
      expect((await third.send(third.statement("experienced"))).statusCode).toBe(401);
      expect((await enrollment(setup)).completedModules).toEqual([setup.moduleId]);

      const notApplicable = await cmi5Course(
        ctx,
        cmi5Zip([{ id: "https://example.com/test/au/na", moveOn: "NotApplicable" }]),
      );
      const au = await launched(notApplicable);
      const naVerbs = (await statementsOf(ctx, notApplicable.adminCookie, au.registration)).map(
        (s) => s.verb.id,
      );
      expect(naVerbs).toEqual([VERB.satisfied, VERB.launched]);
      expect((await enrollment(notApplicable)).completedModules).toEqual([notApplicable.moduleId]);
    });

    it("lets an administrator waive an AU, which then counts", async () => {
      const setup = await cmi5Course(
        ctx,
        cmi5Zip([{ id: "https://example.com/test/au/w", moveOn: "Passed" }]),
      );
      const url = `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5/waive`;
      const body = { userId: setup.learner.id, auId: setup.auIds[0], reason: "Tested Out" };
      const early = await call(ctx, "POST", url, { cookie: setup.adminCookie, payload: body });
      expect(early.statusCode).toBe(409);
      expect(early.json().code).toBe("cmi5.not_launched");
      const au = await (await launched(setup)).start();
      await au.sendOk("initialized");
      await au.sendOk("terminated");
      expect(
        (await call(ctx, "POST", url, { cookie: setup.learnerCookie, payload: body })).statusCode,
      ).toBe(403);
      expect(
        (
          await call(ctx, "POST", url, {
            cookie: setup.adminCookie,
            payload: { ...body, auId: "https://example.com/none" },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await call(ctx, "POST", url, {
            cookie: setup.adminCookie,
            payload: { ...body, userId: "nobody" },
          })
        ).statusCode,
      ).toBe(404);
      const waived = await call(ctx, "POST", url, { cookie: setup.adminCookie, payload: body });
      expect(waived.statusCode, waived.body).toBe(200);
      expect(waived.json()).toMatchObject({
        satisfied: true,
        aus: [{ waived: "Tested Out", satisfied: true }],
      });
      const statements = await statementsOf(ctx, setup.adminCookie, au.registration);
      expect(statements.map((s) => s.verb.id).slice(3)).toEqual([VERB.waived, VERB.satisfied]);
      expect(statements[3]).toMatchObject({
        actor: au.actor,
        object: { id: au.activityId },
        result: {
          success: true,
          completion: true,
          extensions: { "https://w3id.org/xapi/cmi5/result/extensions/reason": "Tested Out" },
        },
      });
      expect(
        statements[4]!.context.extensions[
          "https://w3id.org/xapi/cmi5/context/extensions/sessionid"
        ],
      ).toBe(
        statements[3]!.context.extensions[
          "https://w3id.org/xapi/cmi5/context/extensions/sessionid"
        ],
      );
      expect((await enrollment(setup)).completedModules).toEqual([setup.moduleId]);
      const again = await call(ctx, "POST", url, { cookie: setup.adminCookie, payload: body });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe("cmi5.already_satisfied");
    });
  });

  it("refuses a flood of xAPI requests from one session or address, and serves the others", async () => {
    const about = (remoteAddress: string) =>
      ctx.app.content.inject({ method: "GET", url: "/xapi/about", remoteAddress });
    for (let i = 0; i < 1200; i += 1) {
      const answer = await about("192.0.2.7");
      expect(answer.statusCode).toBe(200);
    }
    const flooded = await about("192.0.2.7");
    expect(flooded.statusCode).toBe(429);
    expect(flooded.json()).toMatchObject({ code: "request.throttled" });
    expect(flooded.headers["retry-after"]).toBeDefined();
    expect((await about("192.0.2.8")).statusCode).toBe(200);
  });
});
