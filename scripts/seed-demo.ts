/**
 * Fills a fresh data directory with demo content through the real API (app.inject):
 * an administrator, a dozen learners, courses in all four categories with thumbnails and
 * small playable videos, and enrollments at every stage. Used by `npm run demo`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "../src/server/app";
import { buildConfig } from "../src/server/config";
import { openDatabase } from "../src/server/db/client";

export const DEMO_ADMIN = {
  email: "admin@credo.test",
  password: "credo-admin",
  name: "Morgan Admin",
};
export const DEMO_LEARNER_PASSWORD = "credo-learner";

const root = fileURLToPath(new URL("..", import.meta.url));

const COURSES = [
  {
    title: "Modern JavaScript Foundations",
    category: "Development",
    duration: 6,
    colors: ["4f46e5", "06b6d4"],
    modules: ["Variables and types", "Functions and scope", "Async and promises"],
    description:
      "A practical tour of the language that runs the web, from values and functions to asynchronous code.",
  },
  {
    title: "TypeScript for Teams",
    category: "Development",
    duration: 4,
    colors: ["2563eb", "7c3aed"],
    modules: ["Why types", "Generics in practice", "Typing an API"],
    description: "Adopt TypeScript in a growing codebase without slowing the team down.",
  },
  {
    title: "SQL Essentials",
    category: "Database",
    duration: 5,
    colors: ["0f766e", "22c55e"],
    modules: ["Selecting data", "Joins explained", "Indexes and plans"],
    description:
      "Query relational data with confidence and understand what the database does with your query.",
  },
  {
    title: "PostgreSQL Performance",
    category: "Database",
    duration: 3,
    colors: ["155e75", "0ea5e9"],
    modules: ["Reading EXPLAIN", "Choosing indexes"],
    description: "Find slow queries, read their plans and fix them with the right index.",
  },
  {
    title: "Mobile UX Patterns",
    category: "Mobile",
    duration: 3,
    colors: ["be123c", "f97316"],
    modules: ["Thumb zones", "Navigation patterns", "Offline states"],
    description:
      "Design mobile screens people can use with one hand, on the move, with a flaky connection.",
  },
  {
    title: "React Native Basics",
    category: "Mobile",
    duration: 5,
    colors: ["9333ea", "ec4899"],
    modules: ["Components", "Styling", "Native modules"],
    description: "Build a cross-platform mobile app with the React you already know.",
  },
  {
    title: "Design Systems 101",
    category: "Design",
    duration: 2,
    colors: ["ca8a04", "f43f5e"],
    modules: ["Tokens", "Components", "Documentation"],
    description: "Create a design system that designers and engineers both want to use.",
  },
  {
    title: "Accessible Interfaces",
    category: "Design",
    duration: 2,
    colors: ["334155", "64748b"],
    modules: ["Contrast and type", "Keyboard first"],
    description:
      "Make interfaces that work for everyone: contrast, focus, semantics and testing. (Draft)",
  },
] as const;

const LEARNERS = [
  "Amara Okafor",
  "Ben Carter",
  "Chen Wei",
  "Diego Alvarez",
  "Elena Petrova",
  "Farah Haddad",
  "George Mensah",
  "Hana Suzuki",
  "Isaac Cohen",
  "Julia Novak",
  "Kofi Boateng",
  "Lena Fischer",
];

const hasFfmpeg = () => {
  try {
    execFileSync("ffmpeg", ["-version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Generates a titled gradient thumbnail and a short video per course, or uses the fixtures. */
function makeMedia(dir: string, index: number, title: string, colors: readonly string[]) {
  const thumb = join(dir, `thumb-${index}.png`);
  const video = join(dir, `video-${index}.mp4`);
  if (!hasFfmpeg()) {
    return {
      thumb: join(root, "test-fixtures/sample-thumbnail.png"),
      video: join(root, "test-fixtures/sample-video.mp4"),
    };
  }
  const font = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf";
  const text = title.replace(/[':\\]/g, "");
  const label = existsSync(font)
    ? `,drawtext=fontfile=${font}:text='${text}':fontcolor=white:fontsize=34:x=(w-text_w)/2:y=(h-text_h)/2:shadowcolor=black@0.35:shadowx=2:shadowy=2`
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
  execFileSync("ffmpeg", [
    "-hide_banner",
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    `testsrc2=size=480x270:rate=24:duration=12,hue=h=${index * 45}`,
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=${330 + index * 40}:duration=12`,
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-crf",
    "30",
    "-c:a",
    "aac",
    "-b:a",
    "48k",
    "-shortest",
    "-movflags",
    "+faststart",
    video,
  ]);
  return { thumb, video };
}

export async function seedDemo(dataDir: string, log: (line: string) => void = console.log) {
  const config = buildConfig({
    ...process.env,
    DATA_DIR: dataDir,
    PASSWORD_SETUP_MODE: "open",
    LOG_LEVEL: "warn",
    ADMIN_SETUP_KEY: "demo-admin-setup-key",
  });
  const database = await openDatabase(config);
  const app = await buildApp({
    config,
    database,
    adminSetupKey: { key: "demo-admin-setup-key", generated: false },
    logger: false,
  });
  let requests = 0;
  const call = async (
    method: "GET" | "POST" | "PUT" | "PATCH",
    url: string,
    cookie: string,
    payload?: unknown,
  ) => {
    // Each request comes from its own simulated address, as a dozen real people would:
    // the per-address rate limits on sign-up routes are meant for one attacker, not a class.
    requests++;
    const remoteAddress = `10.0.${requests >> 8}.${requests & 255}`;
    const response = await app.inject({
      method,
      url,
      headers: { cookie },
      payload: payload as never,
      remoteAddress,
    });
    if (response.statusCode >= 300) {
      throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    }
    return response;
  };
  const cookieOf = (r: { cookies: { name: string; value: string }[] }) =>
    `credo_session=${r.cookies.find((c) => c.name === "credo_session")?.value}`;

  try {
    const step = (i: number, total: number, what: string) =>
      log(`  [${String(i).padStart(2)}/${total}] ${what}`);
    const total = 5;
    step(1, total, "administrator");
    const admin = cookieOf(
      await call("POST", "/api/auth/setup-admin-password", "", {
        ...DEMO_ADMIN,
        adminKey: "demo-admin-setup-key",
      }),
    );

    step(2, total, `media and ${COURSES.length} courses`);
    const mediaDir = join(dataDir, "demo-media");
    mkdirSync(mediaDir, { recursive: true });
    const upload = async (kind: "thumbnail" | "video", file: string) => {
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
    const courseIds: { id: string; modules: string[]; published: boolean }[] = [];
    let moduleClock = Date.now();
    for (const [index, course] of COURSES.entries()) {
      const media = makeMedia(mediaDir, index, course.title, course.colors);
      const thumbnail = await upload("thumbnail", media.thumb);
      const videoUrl = await upload("video", media.video);
      const { id } = (
        await call("POST", "/api/courses", admin, {
          title: course.title,
          description: course.description,
          category: course.category,
          duration: course.duration,
          thumbnail,
          modules: [],
        })
      ).json();
      const modules: string[] = [];
      for (const title of course.modules) {
        const moduleId = `module_${moduleClock++}`;
        await call("POST", `/api/courses/${id}/modules`, admin, {
          id: moduleId,
          title,
          description: `${title} — a short, focused lesson.`,
          duration: 8 + modules.length * 4,
          videoUrl,
        });
        modules.push(moduleId);
      }
      const published = index !== COURSES.length - 1;
      if (published) await call("PATCH", `/api/courses/${id}/publish`, admin);
      courseIds.push({ id, modules, published });
      log(`         ${course.title}`);
    }

    step(3, total, `${LEARNERS.length} learners`);
    const learners: { id: string; email: string; cookie: string }[] = [];
    for (const name of LEARNERS) {
      const email = `${name.split(" ")[0]!.toLowerCase()}@credo.test`;
      const { id } = (
        await call("POST", "/api/auth/register", admin, {
          email,
          name,
          phone: "+1 555 0100",
          role: "learner",
          status: "active",
          isRegisteredByAdmin: true,
          passwordSetup: false,
        })
      ).json();
      const cookie = cookieOf(
        await call("POST", "/api/auth/setup-password", "", {
          email,
          name,
          password: DEMO_LEARNER_PASSWORD,
          firebaseUid: `demo_${id}`,
        }),
      );
      learners.push({ id, email, cookie });
    }

    step(4, total, "enrollments at every stage");
    const published = courseIds.filter((c) => c.published);
    for (const [i, learner] of learners.entries()) {
      for (let k = 0; k < 3; k++) {
        const course = published[(i + k * 2) % published.length]!;
        await call("POST", "/api/enrollments", admin, {
          userId: learner.id,
          courseId: course.id,
          progress: 0,
          completedModules: [],
          isCompleted: false,
        });
        // Stages: 0 = not started, some = in progress, all = completed (certificate).
        const done = (i + k) % 4 === 0 ? course.modules.length : (i + k) % 4;
        for (const moduleId of course.modules.slice(0, Math.min(done, course.modules.length))) {
          await call("POST", "/api/progress/update", learner.cookie, {
            userId: learner.id,
            courseId: course.id,
            moduleId,
            progress: 0,
          });
        }
      }
    }

    step(5, total, "a restricted learner");
    const restricted = learners.at(-1)!;
    await call("PATCH", `/api/users/learners/${restricted.id}/restrict`, admin);
    return {
      admin: DEMO_ADMIN,
      learnerEmails: learners.map((l) => l.email),
      restricted: restricted.email,
    };
  } finally {
    await app.close();
    await database.close();
  }
}
