import { randomUUID } from "node:crypto";
import type { Course } from "../../contract";
import { createCourse, moduleId, postModule, publish } from "./courses";
import { call, enrollViaApi, quickAdmin, quickLearner, signInAs } from "./learning";
import type { TestContext } from "./test-app";
import { uploadObject } from "./uploads";
import { cmi5Package, makeZip } from "./zips";

const CMI5 = "https://w3id.org/xapi/cmi5/context/categories/cmi5";
const MOVE_ON = "https://w3id.org/xapi/cmi5/context/categories/moveon";
const SESSION = "https://w3id.org/xapi/cmi5/context/extensions/sessionid";
const MASTERY = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore";
export const VERB = {
  initialized: "http://adlnet.gov/expapi/verbs/initialized",
  completed: "http://adlnet.gov/expapi/verbs/completed",
  passed: "http://adlnet.gov/expapi/verbs/passed",
  failed: "http://adlnet.gov/expapi/verbs/failed",
  terminated: "http://adlnet.gov/expapi/verbs/terminated",
  experienced: "http://adlnet.gov/expapi/verbs/experienced",
  launched: "http://adlnet.gov/expapi/verbs/launched",
  satisfied: "https://w3id.org/xapi/adl/verbs/satisfied",
  abandoned: "https://w3id.org/xapi/adl/verbs/abandoned",
  waived: "https://w3id.org/xapi/adl/verbs/waived",
} as const;

export interface TestAu {
  id: string;
  moveOn?: string;
  masteryScore?: number;
  url?: string;
  parameters?: string;
}

/**
 * A cmi5 package made by the test: AUs at the top or in blocks (`blocks` names each AU's
 * block by index, or -1 for the top), each launching index.html with its own query.
 */
export function cmi5Zip(aus: TestAu[], blocks: number[] = []): Buffer {
  const au = (a: TestAu, i: number) => `<au id="${a.id}" moveOn="${a.moveOn ?? "Completed"}"${
    a.masteryScore !== undefined ? ` masteryScore="${a.masteryScore}"` : ""
  }><title><langstring lang="en">Unit ${i + 1}</langstring></title>
    <description><langstring lang="en">Unit ${i + 1}</langstring></description>
    <url>${a.url ?? `index.html?unit=${i + 1}`}</url>${
      a.parameters ? `<launchParameters>${a.parameters}</launchParameters>` : ""
    }</au>`;
  const top = aus.map((a, i) => ((blocks[i] ?? -1) === -1 ? au(a, i) : "")).join("\n");
  const blockIds = [...new Set(blocks.filter((b) => b >= 0))];
  const blockXml = blockIds
    .map(
      (b) => `<block id="https://example.com/test/block/${b}">
    <title><langstring lang="en">Block ${b}</langstring></title>
    <description><langstring lang="en">Block ${b}</langstring></description>
    ${aus.map((a, i) => (blocks[i] === b ? au(a, i) : "")).join("\n")}</block>`,
    )
    .join("\n");
  const xml = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.com/test/course"><title><langstring lang="en">Made by the test</langstring></title>
  <description><langstring lang="en">A cmi5 course</langstring></description></course>
  ${top}
  ${blockXml}
</courseStructure>`;
  return makeZip([
    { name: "cmi5.xml", data: xml },
    { name: "index.html", data: "<!doctype html><title>AU</title><p>An AU</p>" },
  ]);
}

export interface Cmi5Setup {
  course: Course;
  moduleId: string;
  adminCookie: string;
  learner: { id: string; email: string; password: string | null };
  learnerCookie: string;
  auIds: string[];
}

/** A published course whose one module is the given cmi5 package, with a learner enrolled. */
export async function cmi5Course(ctx: TestContext, zip: Buffer): Promise<Cmi5Setup> {
  const admin = await quickAdmin(ctx);
  const adminCookie = await signInAs(ctx, admin);
  const course = await createCourse(ctx, adminCookie);
  const packagePath = await uploadObject(ctx, adminCookie, { kind: "package", bytes: zip });
  const id = moduleId(1);
  const added = await postModule(ctx, adminCookie, course.id, {
    id,
    title: "cmi5 course",
    description: "",
    duration: 10,
    kind: "cmi5",
    packagePath,
  });
  if (added.statusCode !== 201) throw new Error(`add cmi5 module: ${added.body}`);
  const published = await publish(ctx, adminCookie, course.id);
  const learner = await quickLearner(ctx);
  await enrollViaApi(ctx, adminCookie, learner.id, course.id);
  const learnerCookie = await signInAs(ctx, learner);
  const auIds = published.modules[0]!.package!.items.map((i) => i.id);
  return { course: published, moduleId: id, adminCookie, learner, learnerCookie, auIds };
}

export function launch(
  ctx: TestContext,
  setup: Pick<Cmi5Setup, "course" | "moduleId">,
  cookie: string,
  body: { auId: string; launchMode?: string },
) {
  return call(
    ctx,
    "POST",
    `/api/courses/${setup.course.id}/modules/${setup.moduleId}/cmi5/launch`,
    {
      cookie,
      payload: body,
    },
  );
}

/**
 * An AU as the tests drive it: it reads its launch URL, fetches its token, reads
 * LMS.LaunchData and the learner preferences, and sends statements the way the cmi5
 * libraries make them, to the content app.
 */
export class TestAuClient {
  readonly params: URLSearchParams;
  readonly url: URL;
  auth = "";
  launchData: Record<string, unknown> = {};

  constructor(
    private readonly ctx: TestContext,
    launchUrl: string,
  ) {
    this.url = new URL(launchUrl);
    this.params = this.url.searchParams;
  }

  get registration() {
    return this.params.get("registration")!;
  }
  get activityId() {
    return this.params.get("activityId")!;
  }
  get actor() {
    return JSON.parse(this.params.get("actor")!) as Record<string, unknown>;
  }
  get sessionId() {
    return (this.launchData.contextTemplate as { extensions: Record<string, string> }).extensions[
      SESSION
    ]!;
  }

  /** A request to the content app, as the AU's page would send it. */
  xapi(
    method: "GET" | "PUT" | "POST" | "DELETE",
    path: string,
    options: {
      query?: Record<string, string>;
      body?: unknown;
      headers?: Record<string, string>;
    } = {},
  ) {
    const query = options.query ? `?${new URLSearchParams(options.query)}` : "";
    const body = options.body;
    return this.ctx.app.content.inject({
      method,
      url: `/xapi/${path}${query}`,
      headers: {
        "x-experience-api-version": "1.0.3",
        ...(this.auth ? { authorization: this.auth } : {}),
        ...(body !== undefined && typeof body !== "string" && !Buffer.isBuffer(body)
          ? { "content-type": "application/json" }
          : {}),
        ...options.headers,
      },
      ...(body !== undefined
        ? {
            payload:
              typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body),
          }
        : {}),
    });
  }

  fetchToken() {
    const fetchUrl = new URL(this.params.get("fetch")!);
    return this.ctx.app.content.inject({ method: "POST", url: fetchUrl.pathname });
  }

  stateQuery(stateId: string) {
    return {
      stateId,
      activityId: this.activityId,
      agent: JSON.stringify(this.actor),
      registration: this.registration,
    };
  }

  /** Fetch, LMS.LaunchData, learner preferences: what an AU does before initializing. */
  async start() {
    const fetched = await this.fetchToken();
    this.auth = `Basic ${fetched.json()["auth-token"]}`;
    const data = await this.xapi("GET", "activities/state", {
      query: this.stateQuery("LMS.LaunchData"),
    });
    if (data.statusCode !== 200) throw new Error(`launch data: ${data.statusCode} ${data.body}`);
    this.launchData = data.json();
    await this.xapi("GET", "agents/profile", {
      query: { profileId: "cmi5LearnerPreferences", agent: JSON.stringify(this.actor) },
    });
    return this;
  }

  /** A statement as cmi5.js makes it for this session. */
  statement(verb: keyof typeof VERB, extra: Record<string, unknown> = {}) {
    const template = JSON.parse(JSON.stringify(this.launchData.contextTemplate ?? {}));
    const defined = verb !== "experienced";
    const judges = verb === "completed" || verb === "passed" || verb === "failed";
    const category = [...(defined ? [{ id: CMI5 }] : []), ...(judges ? [{ id: MOVE_ON }] : [])];
    const mastery = this.launchData.masteryScore;
    const result =
      verb === "completed"
        ? { completion: true, duration: "PT5S" }
        : verb === "passed"
          ? { success: true, duration: "PT5S" }
          : verb === "failed"
            ? { success: false, duration: "PT5S" }
            : verb === "terminated"
              ? { duration: "PT30S" }
              : undefined;
    return {
      id: randomUUID(),
      timestamp: new Date().toISOString(),
      actor: this.actor,
      verb: { id: VERB[verb], display: { en: verb } },
      object: {
        objectType: "Activity",
        id: defined ? this.activityId : `${this.activityId}/page/1`,
      },
      context: {
        ...template,
        registration: this.registration,
        contextActivities: {
          ...template.contextActivities,
          ...(category.length ? { category } : {}),
        },
        extensions: {
          ...template.extensions,
          ...((verb === "passed" || verb === "failed") && mastery !== undefined
            ? { [MASTERY]: mastery }
            : {}),
        },
      },
      ...(result ? { result } : {}),
      ...extra,
    };
  }

  send(statement: Record<string, unknown>) {
    return this.xapi("PUT", "statements", {
      query: { statementId: statement.id as string },
      body: statement,
    });
  }

  async sendOk(verb: keyof typeof VERB, extra: Record<string, unknown> = {}) {
    const response = await this.send(this.statement(verb, extra));
    if (response.statusCode !== 204) {
      throw new Error(`${verb}: ${response.statusCode} ${response.body}`);
    }
  }
}

/** A registration's statements as the administrators' route lists them, oldest first. */
export async function statementsOf(ctx: TestContext, adminCookie: string, registration: string) {
  const response = await call(
    ctx,
    "GET",
    `/api/admin/cmi5/statements?registration=${registration}&ascending=true&limit=1000`,
    { cookie: adminCookie },
  );
  if (response.statusCode !== 200) throw new Error(`statements: ${response.body}`);
  // biome-ignore lint/suspicious/noExplicitAny: statements are read as the JSON they are
  return (response.json() as { statements: Record<string, any>[] }).statements;
}

/**
 * A learner's AU of a one-unit package (ADL's basic responsive sample), launched and past its
 * `initialized`: where the tests of the xAPI resources start.
 */
export async function startedAu(ctx: TestContext) {
  const setup = await cmi5Course(ctx, cmi5Package("single_au_basic_responsive.zip"));
  const launched = await launch(ctx, setup, setup.learnerCookie, { auId: setup.auIds[0]! });
  const au = await new TestAuClient(ctx, launched.json().url).start();
  await au.sendOk("initialized");
  return { setup, au };
}
