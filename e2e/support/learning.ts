import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Course, CourseCreditBody, CourseCreditInput } from "../../src/contract";
import { SERVER_URL } from "./server-url";

/** Helpers for the learner journey and the email flows (course set-up, the outbox). */

export type SeededModule = { id: string; title: string; duration: number; videoUrl: string };
export type SeededCourse = {
  id: string;
  title: string;
  category: string;
  duration: number;
  thumbnail: string | null;
  modules: SeededModule[];
};

/** The upload flow of ARCHITECTURE section 3: request, PUT the bytes, set the ACL. */
export async function uploadObject(
  api: APIRequestContext,
  kind: "thumbnail" | "video",
  filePath: string,
  contentType: string,
): Promise<string> {
  const bytes = readFileSync(filePath);
  const requested = await api.post("/api/objects/upload", {
    data: { kind, fileName: filePath.split("/").pop(), contentType, size: bytes.length },
  });
  expect(requested.status(), await requested.text()).toBe(200);
  const { uploadURL } = (await requested.json()) as { uploadURL: string };
  const put = await api.put(uploadURL, { data: bytes, headers: { "content-type": contentType } });
  expect(put.status(), await put.text()).toBeLessThan(300);
  const acl = await api.put("/api/objects/set-acl", { data: { objectURL: uploadURL } });
  expect(acl.status(), await acl.text()).toBe(200);
  return ((await acl.json()) as { objectPath: string }).objectPath;
}

let moduleClock = Date.now();
/** Module ids are 'module_' and a timestamp (SPEC section 3); each call gets a new one. */
export function nextModuleId(): string {
  moduleClock = Math.max(moduleClock + 1, Date.now());
  return `module_${moduleClock}`;
}

/** Creates a course with a thumbnail and video modules as the admin, and publishes it. */
export async function createPublishedCourse(
  api: APIRequestContext,
  options: {
    title: string;
    description?: string;
    category?: "Development" | "Database" | "Mobile" | "Design";
    duration?: number;
    thumbnail?: boolean;
    modules: { title: string; duration: number; description?: string; video?: string }[];
  },
): Promise<SeededCourse> {
  const thumbnail =
    options.thumbnail === false
      ? null
      : await uploadObject(api, "thumbnail", "test-fixtures/sample-thumbnail.png", "image/png");
  const created = await api.post("/api/courses", {
    data: {
      title: options.title,
      description:
        options.description ?? `Everything you need to know about ${options.title.toLowerCase()}.`,
      category: options.category ?? "Development",
      duration: options.duration ?? 6,
      thumbnail,
      modules: [],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const course = (await created.json()) as SeededCourse;

  const modules: SeededModule[] = [];
  for (const module of options.modules) {
    const videoUrl = await uploadObject(
      api,
      "video",
      module.video ?? "test-fixtures/sample-video.mp4",
      "video/mp4",
    );
    const body = {
      id: nextModuleId(),
      title: module.title,
      description: module.description ?? "",
      duration: module.duration,
      videoUrl,
    };
    const res = await api.post(`/api/courses/${course.id}/modules`, { data: body });
    expect(res.status(), await res.text()).toBe(201);
    modules.push(body);
  }
  const published = await api.patch(`/api/courses/${course.id}/publish`);
  expect(published.status(), await published.text()).toBe(200);
  return { ...course, thumbnail, modules };
}

/** The user id of a learner, looked up by email through the admin's learner search. */
export async function learnerIdByEmail(api: APIRequestContext, email: string): Promise<string> {
  const res = await api.get(`/api/users/learners?q=${encodeURIComponent(email)}`);
  expect(res.status(), await res.text()).toBe(200);
  const learners = (await res.json()) as { id: string; email: string }[];
  const found = learners.find((l) => l.email === email.toLowerCase());
  expect(found, `learner ${email}`).toBeTruthy();
  return found!.id;
}

export async function enroll(api: APIRequestContext, userId: string, courseId: string) {
  const res = await api.post("/api/enrollments", {
    data: { userId, courseId, progress: 0, completedModules: [], isCompleted: false },
  });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * Offers credit on a course, each type by its catalogue type or by its own words (then found
 * in the catalogue, or added there for review); answers the course as it now stands.
 */
export async function offerCredit(
  api: APIRequestContext,
  courseId: string,
  offer: CourseCreditInput,
): Promise<Course> {
  const res = await api.put(`/api/courses/${courseId}/credit`, { data: offer });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Course;
}

/** One credit type of one accrediting body, without statements, claimed whole. */
export function singleCreditOffer(credit: {
  body: string;
  providerNumber: string;
  name: string;
  amount: number;
}): CourseCreditBody {
  return {
    bodies: [{ name: credit.body, providerNumber: credit.providerNumber }],
    types: [
      {
        name: credit.name,
        amount: credit.amount,
        accreditingBody: credit.body,
        accreditationStatement: "",
        designationStatement: "",
        claimStep: null,
        licenceRequired: false,
      },
    ],
  };
}

/** Plays the page's video muted (autoplay rules) and waits until its time advances. */
export async function expectVideoPlays(page: Page) {
  const video = page.getByTestId("module-video");
  await expect(video).toBeVisible();
  await video.evaluate(async (element) => {
    const media = element as HTMLVideoElement;
    media.muted = true;
    await media.play();
  });
  await expect
    .poll(() => video.evaluate((element) => (element as HTMLVideoElement).currentTime), {
      message: "the video's currentTime advances",
    })
    .toBeGreaterThan(0.3);
  await video.evaluate((element) => (element as HTMLVideoElement).pause());
}

// ---------------------------------------------------------------------------------------
// The outbox: the e2e server has no SMTP, so each mail is an .eml file in DATA_DIR/outbox.

/**
 * DATA_DIR of the running test's portal (its project's address), which start-server.mjs
 * writes down for the tests.
 */
export function serverDataDir(): string {
  return portalDataDir(new URL(test.info().project.use.baseURL ?? SERVER_URL).port || "80");
}

/** DATA_DIR of the portal start-server.mjs started on `port`, as it wrote it down. */
export function portalDataDir(port: string): string {
  const file = join("test-results", `e2e-data-dir-${port}.txt`);
  expect(existsSync(file), `${file} (written by e2e/support/start-server.mjs)`).toBe(true);
  return readFileSync(file, "utf8").trim();
}

export type Mail = { file: string; subject: string; to: string; text: string; html: string };

/** Undoes quoted-printable: soft line breaks ('=' at a line end) and '=XX' bytes. */
export function decodeQuotedPrintable(body: string): string {
  const joined = body.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i += 1) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? "" : raw.slice(at).replace(/^\r?\n\r?\n/, "");
  const headers = new Map<string, string>();
  // Folded header lines continue with whitespace.
  for (const line of head.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(headers: Map<string, string>, body: string): string {
  const encoding = (headers.get("content-transfer-encoding") ?? "").toLowerCase();
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body);
  if (encoding === "base64")
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  return body;
}

/** A minimal MIME reader: enough for the server's text + HTML messages. */
export function parseEml(raw: string, file = ""): Mail {
  const { headers, body } = splitHeaders(raw);
  const mail: Mail = {
    file,
    subject: headers.get("subject") ?? "",
    to: headers.get("to") ?? "",
    text: "",
    html: "",
  };
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get("content-type") ?? "")?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1)
        .filter((part) => !part.startsWith("--"))
        .map((part) => splitHeaders(part.replace(/^\r?\n/, "")))
    : [{ headers, body }];
  for (const part of parts) {
    const type = (part.headers.get("content-type") ?? "text/plain").toLowerCase();
    const nested = /boundary="?([^";]+)"?/i.exec(type);
    if (nested) {
      const inner = parseEml(
        `Content-Type: ${part.headers.get("content-type")}\r\n\r\n${part.body}`,
      );
      mail.text ||= inner.text;
      mail.html ||= inner.html;
    } else if (type.startsWith("text/html")) {
      mail.html = decodeBody(part.headers, part.body);
    } else if (type.startsWith("text/plain")) {
      mail.text = decodeBody(part.headers, part.body);
    }
  }
  return mail;
}

/** Mails to this address in the outbox of the portal at `dataDir` (the test's), oldest first. */
export function mailsTo(address: string, dataDir = serverDataDir()): Mail[] {
  const dir = join(dataDir, "outbox");
  if (!existsSync(dir)) return [];
  const needle = address.toLowerCase().replace(/[^a-z0-9@._-]/gi, "_");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".eml") && name.toLowerCase().includes(needle))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b))
    .map((file) => parseEml(readFileSync(file, "utf8"), file));
}

/**
 * Waits for a new mail to the address whose plain text holds a link with this path, and
 * returns the link. Mails already there when `seen` was taken do not count; `dataDir` names
 * another portal's outbox than the test's.
 */
export async function waitForMailLink(
  address: string,
  linkPattern: RegExp,
  options: { seen?: number; dataDir?: string } = {},
): Promise<{ mail: Mail; link: string }> {
  let found: { mail: Mail; link: string } | undefined;
  await expect
    .poll(
      () => {
        for (const mail of mailsTo(address, options.dataDir).slice(options.seen ?? 0)) {
          const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => linkPattern.test(url));
          if (link) {
            found = { mail, link };
            return true;
          }
        }
        return false;
      },
      {
        message: `an email to ${address} with a link like ${linkPattern}`,
      },
    )
    .toBe(true);
  return found!;
}

/** Opens a link from a mail on the server under test, whatever host the mail names. */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
