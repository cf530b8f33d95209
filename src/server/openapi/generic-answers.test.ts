import { randomInt } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import {
  creditSettingsBodySchema,
  DEFAULT_ACTIVITY,
  DEFAULT_CREDIT_SETTINGS,
  DEFAULT_EVALUATION_ITEMS,
  DEFAULT_EXAM_SETTINGS,
  type Role,
} from "../../contract";
import { EXPENSIVE_ANSWERS } from "../plugins/expensive-answers";
import { sessionCookie } from "../security/support";
import { questionBody } from "../testing/assessments";
import { moduleId } from "../testing/courses";
import { quickAdmin, quickLearner } from "../testing/learning";
import { captureRoutes, type RegisteredRoute } from "../testing/route-list";
import { useTestApp } from "../testing/test-app";
import { SESSION_SCHEME } from "./document";

/**
 * The answers the document says every route of a kind gives (document.ts), asked of every
 * route: each check sends the same provocation to all of them, and a route answers it
 * exactly when its document lists that answer. What they answer is recorded with the rest
 * of the suite (RECORD_API_STATUSES) for the coverage test.
 */

interface Operation {
  parameters?: { in: string; name: string }[];
  security?: Record<string, string[]>[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: CodeSchema }> }>;
}
type CodeSchema = { properties?: { code?: { enum?: string[] } } };

interface Op {
  key: string;
  method: string;
  url: string;
  route: RegisteredRoute;
  operation: Operation;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const EVIL_ORIGIN = "https://evil.example";
/** Fits every id parameter, object ids (24 characters of [A-Za-z0-9_-]) included. */
const UNKNOWN_ID = "unknown-id-0000000000000";
const PARAMS: Record<string, string> = {
  moduleId: moduleId(1),
  language: "en",
};

/** A valid body for routes whose unknown-id or limit answers need one to get that far. */
const SAMPLE_BODIES: Record<string, unknown> = {
  "PUT /api/courses/:id/activity": DEFAULT_ACTIVITY,
  "PUT /api/courses/:id/credit-settings": Object.fromEntries(
    Object.keys(creditSettingsBodySchema.shape).map((key) => [
      key,
      DEFAULT_CREDIT_SETTINGS[key as keyof typeof DEFAULT_CREDIT_SETTINGS],
    ]),
  ),
  "PUT /api/courses/:id/evaluation": {
    items: DEFAULT_EVALUATION_ITEMS.map(({ kind, text, required }) => ({ kind, text, required })),
  },
  "PUT /api/courses/:id/exam-settings": DEFAULT_EXAM_SETTINGS,
  "PUT /api/courses/:id/modules/:moduleId/transcript": { transcript: "Hello." },
  "PUT /api/courses/:id/questions/:questionId": questionBody(1),
  "PUT /api/courses/:id/questions/order": { questionIds: [] },
  "PUT /api/courses/:id/signature": { dataUrl: "data:image/png;base64,iVBORw0KGgo=" },
  "POST /api/courses/:id/questions/import": { csv: "text", dryRun: true },
  "POST /api/courses/:id/modules/:moduleId/review": { answers: [] },
  "PUT /api/exam-attempts/:attemptId/answers": { answers: [] },
  "POST /api/exam-attempts/:attemptId/submit": { answers: [] },
  "PUT /api/courses/:courseId/modules/:moduleId/package/items/:itemId": { cmi: {} },
  "POST /api/courses/:courseId/modules/:moduleId/package/seat": { visible: true },
  "POST /api/progress/heartbeat": {
    courseId: UNKNOWN_ID,
    moduleId: moduleId(1),
    intervals: [],
    position: 0,
    duration: 60,
  },
};

const freshAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const codeOf = (response: LightMyRequestResponse): string | undefined => {
  try {
    return (response.json() as { code?: string }).code;
  } catch {
    return undefined;
  }
};
const answerOf = (response: LightMyRequestResponse) =>
  `${response.statusCode}${codeOf(response) ? ` ${codeOf(response)}` : ""}`;

describe("the answers every route of a kind gives, as its document lists them", () => {
  const routes = captureRoutes();
  const ctx = useTestApp();
  let ops: Op[];

  beforeAll(async () => {
    const document = (await ctx.app.inject({ method: "GET", url: "/api/docs/json" })).json() as {
      paths: Record<string, Record<string, Operation>>;
    };
    ops = routes.flatMap((route) => {
      const operations = document.paths[route.url.replace(/:(\w+)/g, "{$1}")] ?? {};
      return [route.method].flat().flatMap((method) => {
        const operation = operations[method.toLowerCase()];
        return operation
          ? [{ key: `${method} ${route.url}`, method, url: route.url, route, operation }]
          : [];
      });
    });
    expect(ops.length).toBeGreaterThan(90);
  });

  const documents = (op: Op, status: number, code: string) => codesAt(op, status).includes(code);
  const codesAt = (op: Op, status: number) =>
    op.operation.responses[String(status)]?.content?.["application/json"]?.schema?.properties?.code
      ?.enum ?? [];
  /** The role the document names for the operation: null for any signed-in user. */
  const roleOf = (op: Op): Role | null | undefined => {
    const requirement = op.operation.security?.find((r) => SESSION_SCHEME in r);
    if (!requirement) return undefined;
    return (requirement[SESSION_SCHEME]?.[0] as Role | undefined) ?? null;
  };
  const queryNames = (op: Op) =>
    (op.operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
  const stateChanging = (op: Op) => !SAFE_METHODS.has(op.method);
  const address = (op: Op, value?: string) =>
    op.url.replace(/:(\w+)/g, (_, name: string) => value ?? PARAMS[name] ?? UNKNOWN_ID);
  const send = (op: Op, options: Partial<InjectOptions> = {}) =>
    ctx.app.inject({
      method: op.method as InjectOptions["method"],
      url: address(op),
      remoteAddress: freshAddress(),
      ...options,
    });
  const cookies = async () => ({
    admin: await sessionCookie(ctx, await quickAdmin(ctx)),
    learner: await sessionCookie(ctx, await quickLearner(ctx)),
  });

  /**
   * Sends `provoke` to every operation and lists those where getting `refusal` and the
   * document listing it (`documented`, by default its code at its status) disagree.
   */
  async function everyOperation(
    provoke: (op: Op) => Promise<LightMyRequestResponse>,
    refusal: { status: number; code: string },
    documented = (op: Op) => documents(op, refusal.status, refusal.code),
  ) {
    const problems: string[] = [];
    for (const op of ops) {
      const response = await provoke(op);
      const got = response.statusCode === refusal.status && codeOf(response) === refusal.code;
      const listed = documented(op);
      if (listed && !got) {
        problems.push(
          `${op.key}: answered ${answerOf(response)}, not ${refusal.status} ${refusal.code}`,
        );
      }
      if (!listed && got) problems.push(`${op.key}: answered ${answerOf(response)}, undocumented`);
    }
    return problems;
  }

  it("asks for a session (401 auth.not_signed_in) exactly where the document does", async () => {
    const problems = await everyOperation(
      (op) => send(op, stateChanging(op) ? { payload: {} } : {}),
      { status: 401, code: "auth.not_signed_in" },
      (op) => roleOf(op) !== undefined && documents(op, 401, "auth.not_signed_in"),
    );
    expect(problems).toEqual([]);
  });

  it("refuses the other role (403 auth.forbidden), and takes the role it names to the input checks (400)", async () => {
    const cookie = await cookies();
    const problems: string[] = [];
    for (const op of ops) {
      const role = roleOf(op);
      // NUL characters everywhere: refused by validation or the input guard, after the role
      // check and before any handler, so nothing changes.
      const poisoned = (as?: string) =>
        send(op, {
          url: `${address(op, "%00")}?${["x", ...queryNames(op)].map((n) => `${n}=%00`).join("&")}`,
          headers: as ? { cookie: as } : {},
          ...(stateChanging(op) ? { payload: { "\u0000": "\u0000" } } : {}),
        });
      for (const as of role === undefined ? [undefined] : (["admin", "learner"] as const)) {
        const response = await poisoned(as && cookie[as]);
        const code = codeOf(response) ?? "";
        if (role && as && as !== role) {
          if (
            response.statusCode !== 403 ||
            code !== "auth.forbidden" ||
            !documents(op, 403, code)
          ) {
            problems.push(
              `${op.key} as ${as}: answered ${answerOf(response)}, not 403 auth.forbidden`,
            );
          }
        } else if (response.statusCode !== 400 || !documents(op, 400, code)) {
          problems.push(
            `${op.key}${as ? ` as ${as}` : ""}: answered ${answerOf(response)}, not a documented 400`,
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("refuses a foreign Origin (403 request.cross_site) exactly where the document does", async () => {
    const problems = await everyOperation(
      (op) =>
        send(op, {
          headers: { origin: EVIL_ORIGIN },
          ...(stateChanging(op) ? { payload: {} } : {}),
        }),
      { status: 403, code: "request.cross_site" },
    );
    expect(problems).toEqual([]);
  });

  it("refuses a body that is not JSON (415 request.json_required) exactly where the document does", async () => {
    const problems = await everyOperation(
      (op) => send(op, { headers: { "content-type": "text/plain" }, payload: "text" }),
      { status: 415, code: "request.json_required" },
    );
    expect(problems).toEqual([]);
  });

  it("refuses a body that is not valid JSON (400 request.invalid_json) exactly where the document does", async () => {
    const problems = await everyOperation(
      (op) => send(op, { headers: { "content-type": "application/json" }, payload: "{" }),
      { status: 400, code: "request.invalid_json" },
    );
    expect(problems).toEqual([]);
  });

  it("refuses a body larger than the route takes (413 request.too_large) exactly where the document does", async () => {
    const problems = await everyOperation(
      // Declared, not sent: the length alone is refused, before any byte is read.
      (op) =>
        send(op, {
          headers: { "content-type": "application/json", "content-length": "1000000000" },
          payload: "{}",
        }),
      { status: 413, code: "request.too_large" },
    );
    expect(problems).toEqual([]);
  });

  it("refuses another Host (421 request.wrong_host) exactly where the document does", async () => {
    const problems = await everyOperation(
      (op) =>
        send(op, {
          headers: { host: "evil.example" },
          ...(stateChanging(op) ? { payload: {} } : {}),
        }),
      { status: 421, code: "request.wrong_host" },
    );
    expect(problems).toEqual([]);
  });

  it("limits the routes with a request limit (429 request.throttled), as the document says", async () => {
    const cookie = await cookies();
    const problems: string[] = [];
    for (const op of ops) {
      const limit = op.route.config?.rateLimit as { max?: number; hook?: string } | undefined;
      if (!limit) {
        if (documents(op, 429, "request.throttled")) problems.push(`${op.key}: not limited`);
        continue;
      }
      if (!documents(op, 429, "request.throttled")) problems.push(`${op.key}: limit undocumented`);
      // A limit counted after the role check and validation needs a request that gets there.
      const late = limit.hook === "preHandler";
      const role = roleOf(op);
      const from = freshAddress();
      const responses = await Promise.all(
        Array.from({ length: (limit.max ?? 0) + 1 }, () =>
          send(op, {
            remoteAddress: from,
            headers: late && role ? { cookie: cookie[role] } : {},
            ...(stateChanging(op) ? { payload: (late && SAMPLE_BODIES[op.key]) || {} } : {}),
          }),
        ),
      );
      if (!responses.some((r) => r.statusCode === 429 && codeOf(r) === "request.throttled")) {
        problems.push(`${op.key}: never answered 429 request.throttled past ${limit.max}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("limits each user's expensive downloads (429 downloads.throttled), as the document says", async () => {
    const problems: string[] = [];
    for (const op of ops) {
      const expensive = Boolean(op.route.config?.expensive);
      if (documents(op, 429, "downloads.throttled") !== expensive) {
        problems.push(`${op.key}: ${expensive ? "limit undocumented" : "not limited"}`);
      }
      if (!expensive) continue;
      // A user of their own per route: the budget is the user's, across routes.
      const admin = await sessionCookie(ctx, await quickAdmin(ctx));
      const responses = await Promise.all(
        Array.from({ length: EXPENSIVE_ANSWERS.perMinute + 1 }, () =>
          send(op, { headers: { cookie: admin } }),
        ),
      );
      if (!responses.some((r) => r.statusCode === 429 && codeOf(r) === "downloads.throttled")) {
        problems.push(`${op.key}: never answered 429 downloads.throttled`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("answers unknown ids with an answer its document lists", async () => {
    const cookie = await cookies();
    const problems: string[] = [];
    for (const op of ops) {
      if (!op.operation.responses["404"] || !op.url.includes(":")) continue;
      const body = SAMPLE_BODIES[op.key];
      // Past validation only with a valid body.
      if (op.operation.requestBody && body === undefined) continue;
      const role = roleOf(op);
      const response = await send(op, {
        headers: role === undefined ? {} : { cookie: cookie[role ?? "admin"] },
        ...(stateChanging(op) ? { payload: (body as object | undefined) ?? {} } : {}),
      });
      const listed = op.operation.responses[String(response.statusCode)];
      const code = codeOf(response);
      if (
        !listed ||
        (response.statusCode >= 400 && (!code || !documents(op, response.statusCode, code)))
      ) {
        problems.push(
          `${op.key}: answered ${answerOf(response)}, which the document does not list`,
        );
      }
    }
    expect(problems).toEqual([]);
  });
});
