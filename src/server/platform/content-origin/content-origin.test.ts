import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { modules } from "../../catalogue/courses/courses.table";
import { createCourse, moduleId, postModule } from "../../testing/courses";
import { expectErrorBody } from "../../testing/errors";
import { quickAdmin, quickLearner, signInAs } from "../../testing/learning";
import { useTestApp } from "../../testing/test-app";
import { uploadObject } from "../../testing/uploads";
import { golfPackage } from "../../testing/zips";
import { createContentLinks } from "./content-links";

const CONTENT_HOST = "127.0.0.1:5001";

describe("the content origin", () => {
  const ctx = useTestApp();

  const links = (now?: () => Date) =>
    createContentLinks({ db: ctx.database.db, contentOrigin: `http://${CONTENT_HOST}`, now });

  /** Adds the golf SCORM 1.2 package as a module; answers its package's id. */
  async function golfModule(): Promise<string> {
    const cookie = await signInAs(ctx, await quickAdmin(ctx));
    const course = await createCourse(ctx, cookie);
    const packagePath = await uploadObject(ctx, cookie, {
      kind: "package",
      bytes: golfPackage("singlesco_scorm12.zip"),
    });
    const added = await postModule(ctx, cookie, course.id, {
      id: moduleId(1),
      title: "Golf",
      description: "",
      duration: 20,
      kind: "scorm",
      packagePath,
    });
    expect(added.statusCode).toBe(201);
    const [row] = await ctx.database.db
      .select({ packageId: modules.packageId })
      .from(modules)
      .where(eq(modules.id, moduleId(1)));
    return row!.packageId!;
  }

  const get = (url: string, host = CONTENT_HOST) =>
    ctx.app.content.inject({ method: "GET", url, headers: { host } });

  it("serves a package's files through a signed link, typed, framed only by the portal, with no cookie", async () => {
    const packageId = await golfModule();
    const base = await links().packageBase(packageId);
    expect(base.startsWith(`http://${CONTENT_HOST}/p/`)).toBe(true);
    const page = await get(`${new URL(base).pathname}shared/launchpage.html`);
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.body).toMatch(/<html/i);
    expect(page.headers["content-security-policy"]).toBe(
      `frame-ancestors http://localhost:5000 http://${CONTENT_HOST}`,
    );
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    expect(page.headers["referrer-policy"]).toBe("no-referrer");
    expect(page.headers["set-cookie"]).toBeUndefined();
    const script = await get(`${new URL(base).pathname}shared/scormfunctions.js`);
    expect(script.headers["content-type"]).toBe("text/javascript; charset=utf-8");
  });

  it("refuses a forged, altered or expired link with 403 and a missing file or folder with 404", async () => {
    const packageId = await golfModule();
    const path = new URL(await links().packageBase(packageId)).pathname;
    const token = path.split("/")[2]!;
    const [id, expires, signature] = token.split(".");
    const refusals = [
      `/p/${id}.${Number(expires) + 1}.${signature}/shared/launchpage.html`,
      `/p/${id}.${expires}.${"A".repeat(24)}/shared/launchpage.html`,
      `/p/${packageId}/shared/launchpage.html`,
    ];
    const past = new Date(Date.now() - 25 * 3600 * 1000);
    refusals.push(`${new URL(await links(() => past).packageBase(packageId)).pathname}index.html`);
    for (const url of refusals) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(403);
      expect(expectErrorBody(answer).code).toBe("content.link_expired");
    }
    for (const file of ["no-such-file.html", "shared", "shared/", "%2e%2e/%2e%2e/secret"]) {
      const answer = await get(`${path}${file}`);
      expect(answer.statusCode, file).toBe(404);
    }
  });

  it("has none of the portal's routes and serves only its own host", async () => {
    const cookie = await signInAs(ctx, await quickLearner(ctx));
    const me = await ctx.app.content.inject({
      method: "GET",
      url: "/api/auth/me",
      headers: { host: CONTENT_HOST, cookie },
    });
    expect(me.statusCode).toBe(404);
    expect(me.body).not.toMatch(/email/);
    const rebound = await get("/p/x.1.y/index.html", "attacker.example:5001");
    expect(rebound.statusCode).toBe(421);
  });

  it("keeps a page of another origin from acting as the signed-in user on the portal", async () => {
    const cookie = await signInAs(ctx, await quickLearner(ctx));
    const asked = (headers: Record<string, string>) =>
      ctx.app.inject({ method: "GET", url: "/api/auth/me", headers: { cookie, ...headers } });
    // The portal's own pages, and the learner's own navigation, are the learner.
    expect(
      (await asked({ "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" })).statusCode,
    ).toBe(200);
    expect(
      (await asked({ "sec-fetch-site": "same-site", "sec-fetch-mode": "navigate" })).statusCode,
    ).toBe(200);
    // A package's script on the content origin (another port or loopback name) is not.
    for (const site of ["same-site", "cross-site"]) {
      const answer = await asked({ "sec-fetch-site": site, "sec-fetch-mode": "cors" });
      expect(answer.statusCode, site).toBe(401);
    }
    const posted = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: {
        cookie,
        origin: `http://${CONTENT_HOST}`,
        "sec-fetch-site": "same-site",
        "sec-fetch-mode": "navigate",
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: "a=1",
    });
    expect(posted.statusCode).toBe(403);
    expect(expectErrorBody(posted).code).toBe("request.cross_site");
  });
});
