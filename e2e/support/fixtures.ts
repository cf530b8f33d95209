import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import {
  type APIRequestContext,
  test as base,
  expect,
  type Locator,
  type Page,
  type TestInfo,
} from "@playwright/test";
import type { Category, Course, Enrollment, Module } from "../../src/contract";

export const ADMIN_KEY = process.env.E2E_ADMIN_KEY ?? "e2e-admin-key";

export type Account = { email: string; password: string; name: string };
/** A learner made by `createLearner`, with their user id. */
export type LearnerAccount = Account & { id: string };

/** Files committed for the browser tests. */
export const FIXTURE_FILES = {
  thumbnail: "test-fixtures/sample-thumbnail.png",
  video: "test-fixtures/sample-video.mp4",
  video2: "test-fixtures/sample-video-2.mp4",
} as const;

export type CourseSeed = {
  title?: string;
  description?: string;
  category?: Category;
  duration?: number;
  /** How many modules to add, each with its own uploaded video (default 0). */
  modules?: number;
  /** Publish after adding the modules (needs at least one). */
  publish?: boolean;
  /** Upload the sample thumbnail. */
  thumbnail?: boolean;
};

/**
 * The address one client of the browser tests comes from (see start-server.mjs): an
 * address in the IPv6 documentation range 2001:db8::/32 (RFC 3849) derived from `parts`.
 * The same parts always give the same address, so a test's rate-limit counts are its own
 * in every run and never shared with another test, whichever worker runs it.
 */
export function clientAddress(...parts: (string | number)[]): string {
  const digest = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  return ["2001", "0db8", ...digest.slice(0, 24).match(/.{4}/g)!].join(":");
}

/** Headers that make requests come from `clientAddress(...parts)`. */
export const fromAddress = (...parts: (string | number)[]) => ({
  "x-forwarded-for": clientAddress(...parts),
});

/** The headers for one client of the running test: `label` names that client. */
const asClientOf = (testInfo: TestInfo, label: string) =>
  fromAddress(testInfo.project.name, ...testInfo.titlePath, testInfo.repeatEachIndex, label);

let counter = 0;
/** An email no other test (or earlier run against the same server) has used. */
export function uniqueEmail(prefix: string): string {
  counter += 1;
  const stamp = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return `${prefix}-${stamp}@example.com`;
}

type WorkerFixtures = {
  /** One administrator for the whole run (setup endpoints are rate limited per address). */
  admin: Account;
};

type TestFixtures = {
  /** An API client signed in as `admin`, separate from the page's cookies. */
  adminApi: APIRequestContext;
  /** A second browser window signed in as `admin` on their dashboard, beside the test's page. */
  adminPage: Page;
  /** Registers a learner as `admin`; with a password, also completes their setup. */
  createLearner: (options?: {
    withPassword?: boolean;
    phone?: string;
    name?: string;
  }) => Promise<LearnerAccount>;
  /** Creates a course through the API as `admin` (real uploads), optionally published. */
  createCourse: (seed?: CourseSeed) => Promise<Course>;
  /** Enrolls a learner in a published course as `admin`. */
  enroll: (learnerId: string, courseId: string) => Promise<Enrollment>;
  /** Signs in as the learner and completes the course's first `count` modules, in order. */
  completeModules: (learner: LearnerAccount, course: Course, count: number) => Promise<void>;
};

export const test = base.extend<TestFixtures, WorkerFixtures>({
  // Every test's browser comes from its own address (see clientAddress).
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires a destructured first argument.
  extraHTTPHeaders: async ({}, use, testInfo) => {
    await use(asClientOf(testInfo, "browser"));
  },
  admin: [
    async ({ playwright }, use, workerInfo) => {
      const api = await playwright.request.newContext({
        baseURL: workerInfo.project.use.baseURL,
        extraHTTPHeaders: fromAddress(workerInfo.project.name, "admin", workerInfo.workerIndex),
      });
      const account = {
        email: uniqueEmail("admin"),
        password: "admin-pass-123",
        name: "Avery Admin",
      };
      const res = await api.post("/api/auth/setup-admin-password", {
        data: { ...account, adminKey: ADMIN_KEY },
      });
      expect(res.status(), await res.text()).toBe(200);
      await api.dispose();
      await use(account);
    },
    { scope: "worker" },
  ],

  adminPage: async ({ browser, admin }, use) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, admin);
    await expect(page).toHaveURL(/\/admin$/);
    await use(page);
    await context.close();
  },
  adminApi: async ({ playwright, admin, baseURL }, use, testInfo) => {
    const api = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: asClientOf(testInfo, "admin api"),
    });
    const res = await api.post("/api/auth/login", {
      data: { email: admin.email, password: admin.password },
    });
    expect(res.status(), await res.text()).toBe(200);
    await use(api);
    await api.dispose();
  },

  createLearner: async ({ playwright, adminApi, baseURL }, use, testInfo) => {
    let learners = 0;
    await use(async ({ withPassword = true, phone, name = "Lee Learner" } = {}) => {
      const client = `learner ${++learners}`;
      const account = {
        email: uniqueEmail("learner"),
        password: "learner-pass-123",
        name,
      };
      const registered = await adminApi.post("/api/auth/register", {
        data: { email: account.email, name: account.name, phone: phone ?? null },
      });
      expect(registered.status(), await registered.text()).toBe(201);
      const { id } = (await registered.json()) as { id: string };
      if (withPassword) {
        const api = await playwright.request.newContext({
          baseURL,
          extraHTTPHeaders: asClientOf(testInfo, client),
        });
        const res = await api.post("/api/auth/setup-password", { data: account });
        expect(res.status(), await res.text()).toBe(200);
        await api.dispose();
      }
      return { ...account, id };
    });
  },

  createCourse: async ({ adminApi }, use) => {
    await use(async (seed = {}) => {
      const created = await adminApi.post("/api/courses", {
        data: {
          title: seed.title ?? `Seeded course ${uniqueEmail("c").slice(2, 12)}`,
          description: seed.description ?? "A course created by the browser tests.",
          category: seed.category ?? "Development",
          duration: seed.duration ?? 2,
          thumbnail: seed.thumbnail
            ? await uploadFile(adminApi, "thumbnail", FIXTURE_FILES.thumbnail)
            : null,
          modules: [],
        },
      });
      expect(created.status(), await created.text()).toBe(201);
      const course = (await created.json()) as Course;
      const modules: Module[] = [];
      for (let i = 0; i < (seed.modules ?? 0); i += 1) {
        const module = {
          // Module ids are 'module_' + a timestamp; keep them unique within the course.
          id: `module_${Date.now() + i}`,
          title: `Module ${i + 1}`,
          description: `Part ${i + 1} of the course.`,
          duration: 5 + i,
          videoUrl: await uploadFile(
            adminApi,
            "video",
            i % 2 === 0 ? FIXTURE_FILES.video : FIXTURE_FILES.video2,
          ),
        };
        const added = await adminApi.post(`/api/courses/${course.id}/modules`, { data: module });
        expect(added.status(), await added.text()).toBe(201);
        modules.push((await added.json()) as Module);
      }
      if (seed.publish) {
        const published = await adminApi.patch(`/api/courses/${course.id}/publish`);
        expect(published.status(), await published.text()).toBe(200);
        return (await published.json()) as Course;
      }
      return { ...course, modules };
    });
  },

  enroll: async ({ adminApi }, use) => {
    await use(async (learnerId, courseId) => {
      const res = await adminApi.post("/api/enrollments", {
        data: {
          userId: learnerId,
          courseId,
          progress: 0,
          completedModules: [],
          isCompleted: false,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      return (await res.json()) as Enrollment;
    });
  },

  completeModules: async ({ playwright, baseURL }, use, testInfo) => {
    let signIns = 0;
    await use(async (learner, course, count) => {
      const api = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: asClientOf(testInfo, `learner sign-in ${++signIns}`),
      });
      const login = await api.post("/api/auth/login", {
        data: { email: learner.email, password: learner.password },
      });
      expect(login.status(), await login.text()).toBe(200);
      for (const module of course.modules.slice(0, count)) {
        const res = await api.post("/api/progress/update", {
          data: { userId: learner.id, courseId: course.id, moduleId: module.id },
        });
        expect(res.status(), await res.text()).toBe(200);
      }
      await api.dispose();
    });
  },
});

const CONTENT_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".mp4": "video/mp4",
  ".zip": "application/zip",
};

/**
 * The upload flow of ARCHITECTURE section 3 through the API: ask for an upload URL, PUT
 * the bytes there, then set-acl. Returns the object path.
 */
export async function uploadFile(
  api: APIRequestContext,
  kind: "thumbnail" | "video" | "package",
  filePath: string,
  /** The file's bytes when they are made by the test rather than read from `filePath`. */
  made?: Buffer,
): Promise<string> {
  const bytes = made ?? readFileSync(filePath);
  const contentType = CONTENT_TYPES[filePath.slice(filePath.lastIndexOf("."))] ?? "";
  const requested = await api.post("/api/objects/upload", {
    data: { kind, fileName: basename(filePath), contentType, size: bytes.length },
  });
  expect(requested.status(), await requested.text()).toBe(200);
  const { uploadURL } = (await requested.json()) as { uploadURL: string };
  const put = await api.put(uploadURL, { data: bytes, headers: { "content-type": contentType } });
  expect(put.status(), await put.text()).toBe(200);
  const acl = await api.put("/api/objects/set-acl", { data: { objectURL: uploadURL } });
  expect(acl.status(), await acl.text()).toBe(200);
  return ((await acl.json()) as { objectPath: string }).objectPath;
}

export { expect };

/** The visible toast (at most one is ever shown). */
export function toastLocator(page: Page): Locator {
  return page.getByTestId("toast");
}

/** Waits for the toast with exactly this title (and description, when given). */
export async function expectToast(page: Page, title: string, description?: string) {
  const toast = toastLocator(page);
  await expect(toast.getByTestId("toast-title")).toHaveText(title);
  if (description !== undefined) {
    await expect(toast.getByTestId("toast-description")).toHaveText(description);
  }
}

/**
 * Closes the toast, if one is shown, for screenshots of what lies under it. A toast also closes
 * itself after 5 s, at any moment between a check and a click, so its close button is found and
 * pressed in the page in one step: either way the toast ends hidden. The button is found by its
 * label, so this also reaches a toast over a modal dialog, which hides it from the accessibility
 * tree but not from a pointer.
 */
export async function dismissToast(page: Page) {
  await page.evaluate(() => {
    document
      .querySelector<HTMLButtonElement>(
        '[data-testid="toast"] button[aria-label="Dismiss notification"]',
      )
      ?.click();
  });
  await expect(toastLocator(page)).toBeHidden();
}

/**
 * Answers the portal's confirmation dialog (components/ui/confirm-dialog.tsx): waits for it,
 * checks it is announced as an alert dialog, and chooses its action or Cancel. Returns its text.
 */
export async function answerConfirm(page: Page, choice: "confirm" | "cancel"): Promise<string> {
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  // Cancel, the safe answer, has the focus from the start.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  const text = (await dialog.locator("p").first().textContent()) ?? "";
  if (choice === "cancel") await dialog.getByRole("button", { name: "Cancel" }).click();
  else await dialog.getByRole("button").last().click();
  await expect(dialog).toBeHidden();
  return text;
}

/** Signs in through the sign-in screen. */
export async function signIn(page: Page, account: Pick<Account, "email" | "password">) {
  await page.goto("/");
  await page.getByLabel("Email address").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
}
