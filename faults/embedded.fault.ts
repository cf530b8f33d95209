import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { alive, embeddedServerPid } from "../src/server/testing/embedded-server";
import {
  client,
  clientAddress,
  type Instance,
  startInstance,
  tempDir,
  waitForEvent,
  waitUntil,
} from "./support";

const root = new URL("..", import.meta.url).pathname;
const PROGRESS_LEARNERS = 4;
const EXAM_LEARNERS = 3;
/** Modules of the progress course: each learner's stream of completions is this long. */
const MODULES = 12;
const QUESTIONS = 4;

type Client = ReturnType<typeof client>;

async function expectStatus(
  what: string,
  pending: Promise<{ status: number; json: unknown }>,
  status: number,
) {
  const r = await pending;
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json as Record<string, unknown>;
}

/**
 * An administrator, a course of MODULES modules with PROGRESS_LEARNERS enrolled, and a
 * course with a final exam (unlimited attempts) whose EXAM_LEARNERS have completed its one
 * module, all through the API.
 */
async function seedPortal(baseUrl: string, who: string) {
  const admin = client(baseUrl, clientAddress(`${who} admin`));
  await expectStatus(
    "admin setup",
    admin.request("POST", "/api/auth/setup-admin-password", {
      email: `admin@${who.replace(/\W/g, "-")}.test`,
      password: "admin-pass-1",
      name: "Fault Admin",
      adminKey: "faults-admin-setup-key",
    }),
    200,
  );
  const video = readFileSync(join(root, "test-fixtures/sample-video.mp4"));
  const upload = await expectStatus(
    "upload",
    admin.request("POST", "/api/objects/upload", {
      kind: "video",
      fileName: "v.mp4",
      contentType: "video/mp4",
      size: video.length,
    }),
    200,
  );
  const uploadURL = String(upload.uploadURL);
  const put = await fetch(new URL(uploadURL, baseUrl), {
    method: "PUT",
    body: video,
    headers: { "content-type": "video/mp4", cookie: admin.cookie },
  });
  if (!put.ok) throw new Error(`upload: ${put.status}`);
  const acl = await expectStatus(
    "set-acl",
    admin.request("PUT", "/api/objects/set-acl", { objectURL: uploadURL }),
    200,
  );
  const videoUrl = String(acl.objectPath);

  const stamp = Date.now();
  const course = async (title: string, modules: number, first: number) => {
    const made = await expectStatus(
      "course",
      admin.request("POST", "/api/courses", {
        title,
        description: "Course for the embedded database fault tests",
        category: "Development",
        duration: 1,
        modules: [],
      }),
      201,
    );
    const id = String(made.id);
    const moduleIds: string[] = [];
    for (let i = 0; i < modules; i++) {
      const moduleId = `module_${stamp + first + i}`;
      await expectStatus(
        "module",
        admin.request("POST", `/api/courses/${id}/modules`, {
          id: moduleId,
          title: `Module ${i + 1}`,
          duration: 5,
          videoUrl,
        }),
        201,
      );
      moduleIds.push(moduleId);
    }
    return { id, moduleIds };
  };

  const progressCourse = await course("Progress under faults", MODULES, 0);
  await expectStatus(
    "publish",
    admin.request("PATCH", `/api/courses/${progressCourse.id}/publish`),
    200,
  );
  const examCourse = await course("Exam under faults", 1, MODULES);
  /** A wrong option of every question: the learners never pass, so they can always retake. */
  const wrongOption = new Map<string, string>();
  for (let n = 1; n <= QUESTIONS; n++) {
    const question = (await expectStatus(
      "question",
      admin.request("POST", `/api/courses/${examCourse.id}/questions`, {
        pool: "final",
        kind: "single",
        text: `Question ${n}?`,
        options: [
          { text: `Right ${n}`, correct: true },
          { text: `Wrong ${n}`, correct: false },
        ],
        explanation: `Because ${n}.`,
      }),
      201,
    )) as unknown as { id: string; options: { id: string; correct: boolean }[] };
    wrongOption.set(question.id, question.options.find((o) => !o.correct)!.id);
  }
  await expectStatus(
    "exam settings",
    admin.request("PUT", `/api/courses/${examCourse.id}/exam-settings`, {
      enabled: true,
      questionCount: 2,
      passMark: 80,
      maxAttempts: null,
      timeLimitMinutes: null,
      revealAnswers: "after_pass",
      reviewRequired: true,
    }),
    200,
  );
  await expectStatus(
    "publish",
    admin.request("PATCH", `/api/courses/${examCourse.id}/publish`),
    200,
  );

  const learner = async (name: string, courseId: string) => {
    const email = `${name}@${who.replace(/\W/g, "-")}.test`;
    const registered = await expectStatus(
      "register",
      admin.request("POST", "/api/auth/register", { email, name }),
      201,
    );
    const id = String(registered.id);
    const c = client(baseUrl, clientAddress(`${who} ${name}`));
    await expectStatus(
      "setup-password",
      c.request("POST", "/api/auth/setup-password", { email, name, password: "pass-1234" }),
      200,
    );
    await expectStatus(
      "enroll",
      admin.request("POST", "/api/enrollments", { userId: id, courseId }),
      201,
    );
    return { id, c };
  };
  const progressLearners = await Promise.all(
    Array.from({ length: PROGRESS_LEARNERS }, (_, i) => learner(`p${i}`, progressCourse.id)),
  );
  const examLearners = await Promise.all(
    Array.from({ length: EXAM_LEARNERS }, async (_, i) => {
      const l = await learner(`e${i}`, examCourse.id);
      await expectStatus(
        "exam course module",
        l.c.request("POST", "/api/progress/update", {
          userId: l.id,
          courseId: examCourse.id,
          moduleId: examCourse.moduleIds[0],
        }),
        200,
      );
      return l;
    }),
  );
  return { admin, progressCourse, examCourse, wrongOption, progressLearners, examLearners };
}

type Seeded = Awaited<ReturnType<typeof seedPortal>>;

interface ProgressAck {
  userId: string;
  moduleId: string;
}
interface StartAck {
  userId: string;
  attemptId: string;
}
interface SubmitAck {
  userId: string;
  attemptId: string;
  score: number;
  /** Sent after the kill: its acknowledgement shows the portal writes again. */
  afterKill: boolean;
}

/**
 * Learners completing modules one after the other and taking the exam again and again, each
 * recording what the portal acknowledged. A request that fails is sent again: it was never
 * acknowledged, so nothing is recorded for it.
 */
function startStream(seeded: Seeded) {
  const progress: ProgressAck[] = [];
  const starts: StartAck[] = [];
  const submits: SubmitAck[] = [];
  const statuses = new Map<string, number>();
  const watchers = new Set<() => void>();
  let running = true;
  let killed = false;
  const count = (what: string, status: number) => {
    const key = `${what} ${status}`;
    statuses.set(key, (statuses.get(key) ?? 0) + 1);
  };
  const acknowledged = () => {
    for (const watch of [...watchers]) watch();
  };
  const send = (c: Client, what: string, method: string, path: string, body?: unknown) =>
    c.request(method, path, body).then(
      (r) => {
        count(what, r.status);
        return r;
      },
      () => {
        count(what, 0);
        return { status: 0, json: null as unknown as Record<string, unknown> };
      },
    );

  const progressWorkers = seeded.progressLearners.map(async ({ id, c }) => {
    for (const moduleId of seeded.progressCourse.moduleIds) {
      for (;;) {
        if (!running) return;
        const r = await send(c, "progress", "POST", "/api/progress/update", {
          userId: id,
          courseId: seeded.progressCourse.id,
          moduleId,
        });
        if (r.status === 200) {
          progress.push({ userId: id, moduleId });
          acknowledged();
          break;
        }
      }
    }
  });
  const examWorkers = seeded.examLearners.map(async ({ id, c }) => {
    const courseId = seeded.examCourse.id;
    while (running) {
      const afterKill = killed;
      const started = await send(c, "exam start", "POST", `/api/courses/${courseId}/exam/attempts`);
      // 201 for a new attempt, 200 for the open one resumed (its earlier submit failed).
      if (started.status !== 201 && started.status !== 200) continue;
      const attempt = started.json as unknown as { id: string; questions: { id: string }[] };
      if (started.status === 201) starts.push({ userId: id, attemptId: attempt.id });
      const answers = attempt.questions.map((q) => ({
        questionId: q.id,
        optionIds: [seeded.wrongOption.get(q.id)!],
      }));
      if (!running) return;
      const r = await send(c, "exam submit", "POST", `/api/exam-attempts/${attempt.id}/submit`, {
        answers,
      });
      if (r.status === 200) {
        submits.push({ userId: id, attemptId: attempt.id, score: Number(r.json.score), afterKill });
        acknowledged();
      }
    }
  });

  return {
    progress,
    starts,
    submits,
    statuses,
    /** Resolves once `condition` holds, checked at every acknowledgement. */
    until(condition: () => boolean, what: string) {
      return waitForEvent<void>((resolve) => {
        const watch = () => {
          if (!condition()) return;
          watchers.delete(watch);
          resolve();
        };
        watchers.add(watch);
        watch();
      }, what);
    },
    markKilled() {
      killed = true;
    },
    /** Stops sending; resolves once every learner's last request is answered. */
    async stop() {
      running = false;
      await Promise.all([...progressWorkers, ...examWorkers]);
    },
    done: () => Promise.all(progressWorkers),
  };
}

/** Every acknowledged write is there, read back through the API of `baseUrl`. */
async function expectAcknowledged(
  baseUrl: string,
  seeded: Seeded,
  stream: ReturnType<typeof startStream>,
) {
  const admin = seeded.admin.withBase(baseUrl);
  for (const { id } of seeded.progressLearners) {
    const r = await admin.request("GET", `/api/enrollments/user/${id}`);
    expect(r.status).toBe(200);
    const enrollment = (
      r.json as unknown as { courseId: string; completedModules: string[] }[]
    ).find((e) => e.courseId === seeded.progressCourse.id)!;
    const acknowledged = stream.progress.filter((p) => p.userId === id).map((p) => p.moduleId);
    expect(enrollment.completedModules).toEqual(expect.arrayContaining(acknowledged));
  }
  const r = await admin.request("GET", `/api/courses/${seeded.examCourse.id}/exam/results`);
  expect(r.status).toBe(200);
  const results = r.json as unknown as {
    learners: {
      userId: string;
      attempts: { id: string; submittedAt: string | null; score: number | null }[];
    }[];
  };
  const attempts = new Map(
    results.learners.flatMap((l) => l.attempts.map((a) => [a.id, { ...a, userId: l.userId }])),
  );
  // Every attempt the portal acknowledged starting, submitted or not.
  for (const ack of stream.starts) {
    expect(attempts.get(ack.attemptId)).toMatchObject({ userId: ack.userId });
  }
  for (const ack of stream.submits) {
    expect(attempts.get(ack.attemptId)).toMatchObject({
      userId: ack.userId,
      submittedAt: expect.any(String),
      score: ack.score,
    });
  }
}

/** The audit chain verifies once the linker has chained every event. */
async function expectAuditChain(baseUrl: string, seeded: Seeded) {
  const admin = seeded.admin.withBase(baseUrl);
  let report: Record<string, unknown> = {};
  await waitUntil(async () => {
    const r = await admin.request("GET", "/api/audit/verify");
    expect(r.status).toBe(200);
    report = r.json;
    return report.ok !== true || report.unlinked === 0;
  }, "the audit linker to chain every event");
  expect(report).toMatchObject({ ok: true, unlinked: 0 });
}

/** The portal's log of the requests it answered 500, for a failure's message. */
const failedRequests = (app: Instance) =>
  app
    .output()
    .split("\n")
    .filter((line) => line.includes('"request failed"'))
    .join("\n");

/** Waits until the killed portal's lock on DATA_DIR is stale (src/server/db/client.ts). */
async function lockGoesStale(dataDir: string) {
  const lock = join(dataDir, "db.lock");
  await waitUntil(
    () => Date.now() - statSync(lock).mtimeMs > 15_000,
    "the killed portal's lock to go stale",
    30_000,
  );
}

describe("the embedded PostgreSQL server, as npm start runs it, under SIGKILL", () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  /** A portal on `dataDir`, stopped at the end, and its server with it should it outlive it. */
  async function portal(dataDir: string): Promise<Instance> {
    const app = await startInstance({ DATA_DIR: dataDir });
    cleanups.push(async () => {
      await app.stop();
      const left = embeddedServerPid(dataDir);
      if (left !== undefined) process.kill(left, "SIGQUIT");
    });
    return app;
  }

  /** Starts the stream and waits until enough of both kinds of write were acknowledged. */
  async function streamUnderWay(seeded: Seeded) {
    const stream = startStream(seeded);
    await stream.until(
      () => stream.progress.length >= 20 && stream.submits.length >= 3,
      "20 acknowledged progress updates and 3 acknowledged exam submits",
    );
    return stream;
  }

  /** Stops the portal as an operator does; it stops its server with it. */
  async function stopCleanly(app: Instance, dataDir: string) {
    const server = embeddedServerPid(dataDir);
    expect(server).toBeGreaterThan(0);
    // Exit code 0: the portal closed every database connection and stopped its server
    // within its grace period.
    expect(await app.stop(), app.output()).toBe(0);
    expect(alive(server!)).toBe(false);
    expect(embeddedServerPid(dataDir)).toBeUndefined();
  }

  it("the portal killed: a new portal stops the server it left and keeps every acknowledged write", async () => {
    const dataDir = tempDir();
    const first = await portal(dataDir);
    const seeded = await seedPortal(first.url, "portal killed");
    const orphan = embeddedServerPid(dataDir)!;
    const stream = await streamUnderWay(seeded);

    await first.stop("SIGKILL");
    await stream.stop();
    // Its server outlives it, with nobody to stop it.
    expect(alive(orphan)).toBe(true);

    await lockGoesStale(dataDir);
    const second = await portal(dataDir);
    expect(second.output()).toContain(
      `stopping the embedded PostgreSQL (pid ${orphan}) left by an earlier portal`,
    );
    expect(alive(orphan)).toBe(false);
    await expectAcknowledged(second.url, seeded, stream);
    await expectAuditChain(second.url, seeded);
    await stopCleanly(second, dataDir);
  });

  it("the server killed: the running portal starts it again and keeps every acknowledged write", async () => {
    const dataDir = tempDir();
    const app = await portal(dataDir);
    const seeded = await seedPortal(app.url, "server killed");
    const killed = embeddedServerPid(dataDir)!;
    const stream = await streamUnderWay(seeded);

    stream.markKilled();
    process.kill(killed, "SIGKILL");
    // The portal recovers by itself: exam submits sent after the kill are acknowledged, and
    // every learner's completions go through to the last module.
    await stream.until(
      () => stream.submits.filter((s) => s.afterKill).length >= 3,
      "3 exam submits acknowledged after the kill",
    );
    await stream.done();
    await stream.stop();

    expect(app.process.exitCode).toBeNull();
    expect(app.output()).toContain("embedded PostgreSQL exited (SIGKILL); restarting it");
    const restarted = embeddedServerPid(dataDir);
    expect(restarted).toBeGreaterThan(0);
    expect(restarted).not.toBe(killed);
    expect(stream.progress).toHaveLength(PROGRESS_LEARNERS * MODULES);
    // Requests the outage cut short were refused as unavailable (503), never anything else.
    const unexpected = [...stream.statuses.keys()].filter((key) => !/ (200|201|503)$/.test(key));
    expect(unexpected, failedRequests(app)).toEqual([]);
    await expectAcknowledged(app.url, seeded, stream);
    await expectAuditChain(app.url, seeded);
    await stopCleanly(app, dataDir);
  });

  it("the portal and its server killed together: a new portal keeps every acknowledged write", async () => {
    const dataDir = tempDir();
    const first = await portal(dataDir);
    const seeded = await seedPortal(first.url, "both killed");
    const server = embeddedServerPid(dataDir)!;
    const stream = await streamUnderWay(seeded);

    const exited = first.stop("SIGKILL");
    process.kill(server, "SIGKILL");
    await exited;
    await stream.stop();
    await waitUntil(() => !alive(server), "the killed server to exit");

    await lockGoesStale(dataDir);
    const second = await portal(dataDir);
    // Nothing was left running to stop: PostgreSQL recovers the cluster from its log.
    expect(second.output()).not.toContain("left by an earlier portal");
    await expectAcknowledged(second.url, seeded, stream);
    await expectAuditChain(second.url, seeded);
    await stopCleanly(second, dataDir);
  });
});
