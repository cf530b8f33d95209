/**
 * Fills a fresh data directory with an accredited provider's demo through the real API
 * (app.inject): the organisation profile, a credit catalogue (ANCC contact hours, NASBA CPE
 * credits, AMA PRA Category 1 Credit™), a nursing, an accounting and a jointly accredited
 * physician course, published with their credit, and learners at every stage of them, from
 * invited to a revoked certificate. Every score is the server's grade and every certificate
 * the server's issue. Used by `npm run demo`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type {
  Attempt,
  CatalogueType,
  Certificate,
  Course,
  EvaluationForm,
  ExamSettings,
  Module,
  Question,
  QuestionInput,
  Review,
  SubmitResult,
} from "../src/contract";
import { HEARTBEAT_INTERVAL_MS } from "../src/contract";
import { type App, buildApp } from "../src/server/app";
import { buildConfig } from "../src/server/config";
import { openDatabase } from "../src/server/db/client";
import type { DemoCourse } from "./demo/demo-course";
import { ETHICS_COURSE } from "./demo/ethics-course";
import {
  emailOf,
  INVITED_LEARNER,
  LEARNER_PLANS,
  LEARNERS,
  type LearnerPlan,
} from "./demo/learners";
import { NURSING_COURSE } from "./demo/nursing-course";
import { PHYSICIAN_COURSE } from "./demo/physician-course";
import { BODIES, type CatalogueKey, CREDIT_TYPES, ORGANISATION } from "./demo/provider";

export const DEMO_ADMIN = {
  email: "admin@credo.test",
  password: "credo-admin",
  name: "Morgan Admin",
};
export const DEMO_LEARNER_PASSWORD = "credo-learner";
const DEMO_ADMIN_KEY = "demo-admin-setup-key";

/** Said when the portal already has the demo's administrator: the demo fills a fresh one only. */
export const DEMO_ALREADY_SEEDED =
  "This portal already holds the demo (its administrator exists): the demo fills only a fresh data directory, which `npm run demo` makes each time.";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixture = (name: string) => join(root, "test-fixtures", name);

const COURSES = {
  nursing: NURSING_COURSE,
  ethics: ETHICS_COURSE,
  physician: PHYSICIAN_COURSE,
} satisfies Record<LearnerPlan["course"], DemoCourse>;

/** The short videos the repository ships, taken in turn by the courses. */
const VIDEOS = ["sample-video.mp4", "sample-video-2.mp4"];

/** A course as the seed made it: its modules, question bank, and offered credit by catalogue key. */
interface BuiltCourse {
  id: string;
  modules: Module[];
  bank: Map<string, Question>;
  typeIds: Map<CatalogueKey, string>;
}

const SHORT_VIDEOS_REASON =
  "Demo: short sample clips stand in for the recorded lectures the stated lengths describe.";

const DAY_MS = 86_400_000;
const day = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

const hasFfmpeg = () => {
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** A titled gradient thumbnail where ffmpeg can draw one, else the repository's own. */
function makeThumbnail(dir: string, index: number, title: string, colors: readonly string[]) {
  if (!hasFfmpeg()) return fixture("sample-thumbnail.png");
  const thumb = join(dir, `thumb-${index}.png`);
  const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
  const text = title.replace(/[':\\]/g, "");
  const label = existsSync(font)
    ? `,drawtext=fontfile=${font}:text='${text}':fontcolor=white:fontsize=30:x=(w-text_w)/2:y=(h-text_h)/2:shadowcolor=black@0.35:shadowx=2:shadowy=2`
    : "";
  const [c0, c1] = colors;
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `gradients=s=640x360:c0=0x${c0}:c1=0x${c1}:x0=0:y0=0:x1=640:y1=360:duration=1${label}`,
    "-frames:v",
    "1",
    thumb,
  ]);
  return thumb;
}

export async function seedDemo(dataDir: string, log: (line: string) => void = console.log) {
  const config = buildConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PASSWORD_SETUP_MODE: "open",
    LOG_LEVEL: "warn",
    ADMIN_SETUP_KEY: DEMO_ADMIN_KEY,
  });
  const database = await openDatabase(config);
  // Verified watching credits seconds only as fast as the clock runs: the demo's learners play
  // the accredited course's videos on a clock of their own, moved on by hand, not in real time.
  let watchedAhead = 0;
  const app = await buildApp({
    config,
    database,
    clock: () => new Date(Date.now() + watchedAhead),
    adminSetupKey: { key: DEMO_ADMIN_KEY, generated: false },
    logger: false,
    // The seed is this portal's only client, and it waits for every answer: a busy machine
    // slows it down rather than making it a crowd to shed.
    shedLoad: false,
  });
  try {
    return await fillDemo(app, {
      adminKey: DEMO_ADMIN_KEY,
      mediaDir: join(dataDir, "demo-media"),
      watchAhead: (ms) => {
        watchedAhead += ms;
      },
      log,
    });
  } finally {
    await app.close();
    await database.close();
  }
}

/**
 * The demo, through the API of a portal with no administrator yet. `watchAhead` moves the
 * portal's credit clock on, as the seconds of a video played in full pass.
 */
export async function fillDemo(
  app: App,
  options: {
    adminKey: string;
    mediaDir: string;
    watchAhead: (ms: number) => void;
    log: (line: string) => void;
  },
) {
  const { log } = options;
  let requests = 0;
  const send = (
    method: "GET" | "POST" | "PUT" | "PATCH",
    url: string,
    cookie: string,
    payload?: unknown,
  ) => {
    // Each request comes from its own simulated address, as a dozen real people would:
    // the per-address rate limits on sign-up routes are meant for one attacker, not a class.
    requests++;
    return app.inject({
      method,
      url,
      headers: { cookie },
      payload: payload as never,
      remoteAddress: `10.0.${requests >> 8}.${requests & 255}`,
    });
  };
  const call = async (
    method: "GET" | "POST" | "PUT" | "PATCH",
    url: string,
    cookie: string,
    payload?: unknown,
  ) => {
    const response = await send(method, url, cookie, payload);
    if (response.statusCode >= 300) {
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    }
    return response;
  };
  const cookieOf = (r: { cookies: { name: string; value: string }[] }) =>
    `credo_session=${r.cookies.find((c) => c.name === "credo_session")?.value}`;
  const step = (i: number, what: string) => log(`  [${i}/6] ${what}`);

  step(1, "administrator");
  const setup = await send("POST", "/api/auth/setup-admin-password", "", {
    ...DEMO_ADMIN,
    adminKey: options.adminKey,
  });
  if (setup.statusCode === 409) throw new Error(DEMO_ALREADY_SEEDED);
  if (setup.statusCode !== 200) throw new Error(`administrator: ${setup.statusCode} ${setup.body}`);
  const admin = cookieOf(setup);

  mkdirSync(options.mediaDir, { recursive: true });
  const upload = async (kind: "thumbnail" | "video" | "logo", file: string) => {
    const bytes = readFileSync(file);
    const contentType = kind === "video" ? "video/mp4" : "image/png";
    const { uploadURL } = (
      await call("POST", "/api/objects/upload", admin, {
        kind,
        fileName: file.split("/").pop(),
        contentType,
        size: bytes.length,
      })
    ).json();
    await app.inject({
      method: "PUT",
      url: uploadURL,
      headers: { cookie: admin, "content-type": contentType },
      payload: bytes,
    });
    return (await call("PUT", "/api/objects/set-acl", admin, { objectURL: uploadURL })).json()
      .objectPath as string;
  };

  step(2, "the organisation profile and its credit catalogue");
  const logoPath = await upload(
    "logo",
    makeThumbnail(options.mediaDir, 99, "Credo Learning", ["1e3a8a", "4f46e5"]),
  );
  await call("PUT", "/api/admin/organisation", admin, { ...ORGANISATION, logoPath });
  const bodyIds = new Map<string, string>();
  for (const [key, body] of Object.entries(BODIES)) {
    bodyIds.set(key, (await call("POST", "/api/credit-catalogue/bodies", admin, body)).json().id);
  }
  const catalogueIds = new Map<CatalogueKey, string>();
  for (const [key, { body, type }] of Object.entries(CREDIT_TYPES)) {
    const added = (
      await call("POST", "/api/credit-catalogue/types", admin, {
        ...type,
        bodyId: bodyIds.get(body),
      })
    ).json() as CatalogueType;
    catalogueIds.set(key as CatalogueKey, added.id);
  }

  step(3, `${Object.keys(COURSES).length} accredited courses`);
  const captions = readFileSync(fixture("sample-captions.vtt"));
  const signature = readFileSync(fixture("sample-signature.png"));
  let moduleClock = Date.now();
  const built = new Map<LearnerPlan["course"], BuiltCourse>();
  for (const [index, [key, course]] of Object.entries(COURSES).entries()) {
    const demo: DemoCourse = course;
    const videoUrl = await upload("video", fixture(VIDEOS[index % VIDEOS.length]!));
    const { id } = (
      await call("POST", "/api/courses", admin, {
        title: demo.title,
        description: demo.description,
        category: demo.category,
        duration: demo.duration,
        thumbnail: await upload(
          "thumbnail",
          makeThumbnail(options.mediaDir, index, demo.title, demo.colors),
        ),
        modules: [],
      })
    ).json() as { id: string };
    const bank = new Map<string, Question>();
    const addQuestion = async (body: QuestionInput) => {
      const question = (
        await call("POST", `/api/courses/${id}/questions`, admin, body)
      ).json() as Question;
      bank.set(question.id, question);
    };
    const modules: Module[] = [];
    for (const module of demo.modules) {
      const moduleId = `module_${moduleClock++}`;
      modules.push(
        (
          await call("POST", `/api/courses/${id}/modules`, admin, {
            id: moduleId,
            title: module.title,
            description: module.description,
            duration: module.duration,
            videoUrl,
          })
        ).json() as Module,
      );
      // Accredited video needs captions (WCAG 1.2.2): every module has an English track and
      // a transcript, so the player's captions toggle and transcript show in the demo.
      await call("PUT", `/api/courses/${id}/modules/${moduleId}/captions/en`, admin, {
        label: "English",
        fileName: "captions.vtt",
        contentType: "text/vtt",
        data: captions.toString("base64"),
      });
      await call("PUT", `/api/courses/${id}/modules/${moduleId}/transcript`, admin, {
        transcript: `${module.title}. ${module.description}`,
      });
      for (const question of module.review) {
        await addQuestion({ ...question, pool: "review", moduleId });
      }
    }
    for (const question of demo.final) await addQuestion({ ...question, pool: "final" });
    const { creditTypes } = (
      await call("PUT", `/api/courses/${id}/credit`, admin, {
        bodies: [],
        types: demo.credit.map((c) => ({
          catalogueTypeId: catalogueIds.get(c.type),
          amount: c.amount,
          designationStatement: c.designationStatement,
          claimStep: c.claimStep,
        })),
      })
    ).json() as Course;
    const typeIds = new Map(
      demo.credit.map((c) => [
        c.type,
        creditTypes.find((t) => t.catalogueTypeId === catalogueIds.get(c.type))!.id,
      ]),
    );
    if (demo.exam) {
      const { checks } = (
        await call("PUT", `/api/courses/${id}/exam-settings`, admin, demo.exam)
      ).json() as ExamSettings;
      // The demo's exam course is the example to follow: it meets the warnings too.
      if (checks.length)
        throw new Error(`${demo.title}: ${checks.map((c) => c.message).join(" ")}`);
    }
    // Dated from today, so the activity is current whenever the demo is made.
    const dated = demo.activity.releaseDate
      ? { releaseDate: day(-60), reviewDate: day(120), expirationDate: day(300) }
      : {};
    await call("PUT", `/api/courses/${id}/activity`, admin, { ...demo.activity, ...dated });
    await call("PUT", `/api/courses/${id}/credit-settings`, admin, demo.creditSettings);
    await call("PUT", `/api/courses/${id}/signature`, admin, {
      dataUrl: `data:image/png;base64,${signature.toString("base64")}`,
    });
    // Credit is earned by watching: a module counts once its video has been played through.
    await call("PATCH", `/api/courses/${id}/settings`, admin, { completionPolicy: "verified" });
    // The repository's sample clips stand in for an hour of recorded teaching: publishing says
    // so, as the reason an administrator gives (it is kept on the audit trail).
    await call(
      "PATCH",
      `/api/courses/${id}/publish?creditLengthReason=${encodeURIComponent(SHORT_VIDEOS_REASON)}`,
      admin,
    );
    built.set(key as LearnerPlan["course"], { id, modules, bank, typeIds });
    log(`         ${demo.title}`);
  }

  step(4, `${LEARNERS.length} learners and one invited`);
  const register = async (name: string) =>
    (
      await call("POST", "/api/auth/register", admin, {
        email: emailOf(name),
        name,
        phone: "+1 555 0100",
        role: "learner",
        status: "active",
        isRegisteredByAdmin: true,
        passwordSetup: false,
      })
    ).json().id as string;
  const learners = new Map<string, { id: string; cookie: string }>();
  for (const name of LEARNERS) {
    const id = await register(name);
    const cookie = cookieOf(
      await call("POST", "/api/auth/setup-password", "", {
        email: emailOf(name),
        name,
        password: DEMO_LEARNER_PASSWORD,
        firebaseUid: `demo_${id}`,
      }),
    );
    learners.set(emailOf(name), { id, cookie });
  }
  const enroll = (userId: string, courseId: string) =>
    call("POST", "/api/enrollments", admin, {
      userId,
      courseId,
      progress: 0,
      completedModules: [],
      isCompleted: false,
    });
  const invitedId = await register(INVITED_LEARNER);
  await enroll(invitedId, built.get("nursing")!.id);

  step(5, "learners at every stage, from not started to a revoked certificate");
  const stages: { course: string; email: string; stage: string; scores: number[] }[] = [];
  for (const [p, plan] of LEARNER_PLANS.entries()) {
    const course = built.get(plan.course)!;
    const demo: DemoCourse = COURSES[plan.course];
    const learner = learners.get(plan.email)!;
    const scores = await takeCourse(plan, p, course, demo, learner);
    stages.push({ course: demo.title, email: plan.email, stage: plan.stage, scores });
  }

  step(6, "a restricted learner");
  const restricted = emailOf(LEARNERS.at(-1)!);
  await call("PATCH", `/api/users/learners/${learners.get(restricted)!.id}/restrict`, admin);
  return {
    admin: DEMO_ADMIN,
    learnerEmails: [...learners.keys()],
    invited: emailOf(INVITED_LEARNER),
    restricted,
    stages,
  };

  /** Takes one learner as far through one course as their plan says; the exam scores. */
  async function takeCourse(
    plan: LearnerPlan,
    p: number,
    course: BuiltCourse,
    demo: DemoCourse,
    learner: { id: string; cookie: string },
  ) {
    const { id: courseId, bank } = course;
    /** The bank's correct options for a question, or one of its wrong ones. */
    const answer = (questionId: string, right: boolean) => {
      const options = bank.get(questionId)!.options;
      return {
        questionId,
        optionIds: right
          ? options.filter((o) => o.correct).map((o) => o.id)
          : [options.find((o) => !o.correct)!.id],
      };
    };
    /** Plays a module's video from start to end, one heartbeat per interval, as the player does. */
    const watchModule = async (module: Module) => {
      const length = module.videoSeconds ?? 12;
      const every = HEARTBEAT_INTERVAL_MS / 1000;
      const beat = (from: number, to: number) =>
        call("POST", "/api/progress/heartbeat", learner.cookie, {
          courseId,
          moduleId: module.id,
          intervals: to > from ? [[from, to]] : [],
          position: to,
          duration: length,
        });
      await beat(0, 0);
      for (let at = 0; at < length; at += every) {
        options.watchAhead(HEARTBEAT_INTERVAL_MS);
        await beat(at, Math.min(length, at + every));
      }
    };

    await enroll(learner.id, courseId);
    if (plan.modules > 0)
      await call("POST", `/api/courses/${courseId}/acknowledge`, learner.cookie);
    for (const [m, module] of course.modules.slice(0, plan.modules).entries()) {
      await watchModule(module);
      if (demo.modules[m]!.review.length) {
        const reviewUrl = `/api/courses/${courseId}/modules/${module.id}/review`;
        const review = (await call("GET", reviewUrl, learner.cookie)).json() as Review;
        // Mostly right with the odd slip, so both kinds of feedback are on record.
        const answers = review.questions.map((q, i) => answer(q.id, (p + m + i) % 4 !== 3));
        await call("POST", reviewUrl, learner.cookie, { answers });
      }
      await call("POST", "/api/progress/update", learner.cookie, {
        userId: learner.id,
        courseId,
        moduleId: module.id,
        progress: 0,
      });
    }
    const scores: number[] = [];
    for (const correct of plan.attempts) {
      const attempt = (
        await call("POST", `/api/courses/${courseId}/exam/attempts`, learner.cookie)
      ).json() as Attempt;
      const answers = attempt.questions.map((q, i) => answer(q.id, i < correct));
      const result = (
        await call("POST", `/api/exam-attempts/${attempt.id}/submit`, learner.cookie, { answers })
      ).json() as SubmitResult;
      // The server grades; the plan only says how many answers are right.
      const expected = Math.round((100 * correct) / attempt.questions.length);
      if (result.score !== expected) {
        throw new Error(`${plan.email}: scored ${result.score}%, expected ${expected}%`);
      }
      scores.push(result.score);
    }
    if (!plan.claim) return scores;
    const form = (
      await call("GET", `/api/courses/${courseId}/evaluation`, learner.cookie)
    ).json() as EvaluationForm;
    await call("POST", `/api/courses/${courseId}/evaluation`, learner.cookie, {
      answers: form.items.map((item, i) => ({
        itemId: item.id,
        value: item.kind === "likert" ? 5 - (i % 2) : "Clear, practical examples.",
      })),
    });
    if (plan.claim.licence) {
      await call("PUT", "/api/profile/licence", learner.cookie, plan.claim.licence);
    }
    await call("POST", `/api/courses/${courseId}/attest`, learner.cookie, {
      statement: demo.activity.attestationText,
      claims: plan.claim.types.map((type) => {
        const offered = demo.credit.find((c) => c.type === type)!;
        return {
          creditTypeId: course.typeIds.get(type),
          amount: offered.claimStep ? (plan.claim?.amount ?? offered.amount) : null,
        };
      }),
    });
    if (plan.revoke) {
      const mine = (
        await call("GET", "/api/certificates/mine", learner.cookie)
      ).json() as Certificate[];
      const certificate = mine.find((c) => c.courseId === courseId);
      if (!certificate) throw new Error(`${plan.email}: no certificate to revoke`);
      await call("POST", `/api/certificates/${certificate.id}/revoke`, admin, {
        reason: plan.revoke,
      });
    }
    return scores;
  }
}
