/*
 * The portal as ADL's cmi5 LMS Test Suite (CATAPULT LTS) drives an LMS: the suite's
 * `lib/lms.template.js` interface, over the portal's own HTTP API only.
 *
 * - importCourse: an administrator uploads the package through the upload flow, adds it
 *   to a new course as a cmi5 module (the portal checks it there), publishes the course and
 *   enrols the suite's learner. A bare cmi5.xml is uploaded as a package holding only it.
 * - getLaunchUrl: the learner launches the AU (POST .../cmi5/launch). The portal names the
 *   actor (its own account for the learner) and the registration (the learner's attempt
 *   at the module), so the suite's actor is not used and a relaunch keeps the registration.
 * - waiveAU: an administrator waives the AU for the learner.
 * - abandonSession: the learner launches the same AU again; the portal abandons the
 *   session the AU never terminated.
 * - the LRS endpoint the suite reads statements from is a small reader in this process
 *   that asks the administrators' statements route of the portal with the administrator's
 *   session (the portal's own xAPI resources answer only an AU's session token).
 *
 * Read by the suite from its copy (conformance/cmi5/run.mjs puts it there): CommonJS for
 * its jest 27, requests through the suite's own Wreck.
 */
// The suite's jest 27 resolves no "node:" module names.
// biome-ignore lint/style/useNodejsImportProtocol: jest 27 cannot load "node:http"
const http = require("http");
// biome-ignore lint/style/useNodejsImportProtocol: jest 27 cannot load "node:crypto"
const { randomBytes } = require("crypto");
// biome-ignore lint/style/useNodejsImportProtocol: jest 27 cannot load "node:zlib"
const { crc32 } = require("zlib");
const Wreck = require("@hapi/wreck");
const { InvalidPackageError } = require("./errors");

const portal = (process.env.CREDO_PORTAL_URL || "http://localhost:5000").replace(/\/+$/, "");
const adminKey = process.env.CREDO_ADMIN_KEY || "";

const state = {
  admin: "",
  learner: { id: "", cookie: "" },
  /** courseId -> { moduleId, auIds } */
  courses: new Map(),
  /** registration -> courseId */
  registrations: new Map(),
  /** sessionId -> { courseId, auIndex } */
  sessions: new Map(),
  reader: undefined,
  readerUrl: "",
  readerSecret: randomBytes(18).toString("base64url"),
};

let clientNumber = 0;

async function api(method, path, { cookie, body, headers = {}, raw } = {}) {
  const url = /^https?:/.test(path) ? path : `${portal}${path}`;
  const response = await Wreck.request(method, url, {
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(body !== undefined && !raw ? { "content-type": "application/json" } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: raw ? body : JSON.stringify(body) } : {}),
  });
  const text = (await Wreck.read(response)).toString("utf8");
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, json, text, headers: response.headers };
}

async function expectOk(what, promise) {
  const answer = await promise;
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text}`);
  return answer;
}

/** Signs in; the session cookie. Each sign-in from an address of its own (rate limits). */
async function signIn(email, password) {
  const answer = await expectOk(
    `sign in ${email}`,
    api("POST", "/api/auth/login", {
      body: { email, password },
      headers: { "x-forwarded-for": `10.9.${++clientNumber % 250}.${process.pid % 250}` },
    }),
  );
  const cookie = [].concat(answer.headers["set-cookie"] || [])[0] || "";
  return cookie.split(";")[0];
}

/** A zip holding one stored file (a bare cmi5.xml becomes a package of it alone). */
function zipOf(name, data) {
  const nameBytes = Buffer.from(name);
  const crc = crc32(data) >>> 0;
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(30 + nameBytes.length + data.length, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

async function readAll(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The upload flow: ask for an upload URL, PUT the bytes, set-acl; the object path. */
async function upload(bytes, fileName) {
  const requested = await expectOk(
    "upload request",
    api("POST", "/api/objects/upload", {
      cookie: state.admin,
      body: { kind: "package", fileName, contentType: "application/zip", size: bytes.length },
    }),
  );
  const uploadURL = requested.json.uploadURL;
  await expectOk(
    "upload",
    api("PUT", uploadURL, {
      cookie: state.admin,
      body: bytes,
      raw: true,
      headers: { "content-type": "application/zip" },
    }),
  );
  const acl = await expectOk(
    "set-acl",
    api("PUT", "/api/objects/set-acl", { cookie: state.admin, body: { objectURL: uploadURL } }),
  );
  return acl.json.objectPath;
}

/** The LRS reader the suite checks statements with: the administrators' statements route. */
function startReader() {
  return new Promise((resolve) => {
    const server = http.createServer(async (request, response) => {
      // The suite asks `${endpoint}/statements`: the path may start with "//".
      const [path, query = ""] = request.url.split("?");
      const url = { pathname: path.replace(/\/+/g, "/"), searchParams: new URLSearchParams(query) };
      const send = (status, body) => {
        response.writeHead(status, {
          "content-type": "application/json",
          "x-experience-api-version": "1.0.3",
        });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Basic ${state.readerSecret}`) {
        return send(401, { message: "unauthorized" });
      }
      if (request.method !== "GET" || url.pathname !== "/statements") {
        return send(404, { message: "not found" });
      }
      const registration = url.searchParams.get("registration");
      if (!registration) return send(400, { message: "registration is required" });
      const ascending = url.searchParams.get("ascending") === "true" ? "true" : "false";
      const statements = [];
      let next = `/api/admin/cmi5/statements?${new URLSearchParams({ registration, ascending, limit: "1000" })}`;
      try {
        while (next) {
          const page = await expectOk("statements", api("GET", next, { cookie: state.admin }));
          statements.push(...page.json.statements);
          next = page.json.more;
        }
      } catch (err) {
        return send(502, { message: String(err) });
      }
      send(200, { statements, more: "" });
    });
    server.listen(0, "127.0.0.1", () => {
      state.reader = server;
      state.readerUrl = `http://127.0.0.1:${server.address().port}`;
      resolve();
    });
  });
}

module.exports = {
  setup: async (testName) => {
    if (!adminKey) throw new Error("CREDO_ADMIN_KEY is not set");
    const tag = `${testName}-${process.pid}-${Date.now().toString(36)}`;
    const admin = {
      email: `lts-admin-${tag}@example.com`,
      password: "lts-admin-pass-123",
      name: "LTS Admin",
    };
    await expectOk(
      "admin setup",
      api("POST", "/api/auth/setup-admin-password", { body: { ...admin, adminKey } }),
    );
    state.admin = await signIn(admin.email, admin.password);
    const learner = {
      email: `lts-learner-${tag}@example.com`,
      password: "lts-learner-pass-123",
      name: "LTS Learner",
    };
    const registered = await expectOk(
      "register learner",
      api("POST", "/api/auth/register", {
        cookie: state.admin,
        body: { email: learner.email, name: learner.name, phone: null },
      }),
    );
    await expectOk("learner password", api("POST", "/api/auth/setup-password", { body: learner }));
    state.learner = {
      id: registered.json.id,
      cookie: await signIn(learner.email, learner.password),
    };
    await startReader();
  },

  teardown: async () => {
    await new Promise((resolve) => (state.reader ? state.reader.close(resolve) : resolve()));
  },

  getLrsEndpoint: () => state.readerUrl,

  getLrsAuthHeader: () => `Basic ${state.readerSecret}`,

  importCourse: async (stream, contentType, filename) => {
    const bytes = await readAll(stream);
    const zip = contentType === "text/xml" ? zipOf("cmi5.xml", bytes) : bytes;
    const packagePath = await upload(zip, `${filename.replace(/\.[^.]*$/, "")}.zip`);
    const course = await expectOk(
      "create course",
      api("POST", "/api/courses", {
        cookie: state.admin,
        body: {
          title: `LTS ${filename}`,
          description: `The cmi5 LMS Test Suite's ${filename}.`,
          category: "Development",
          duration: 1,
          thumbnail: null,
          modules: [],
        },
      }),
    );
    const moduleId = `module_${Date.now()}`;
    const added = await api("POST", `/api/courses/${course.json.id}/modules`, {
      cookie: state.admin,
      body: {
        id: moduleId,
        title: filename,
        description: "",
        duration: 5,
        kind: "cmi5",
        packagePath,
      },
    });
    if (added.status === 400 && added.json && /^modules\.package_/.test(added.json.code)) {
      throw new InvalidPackageError(`Invalid package (${added.json.code}): ${added.json.message}`);
    }
    if (added.status !== 201) throw new Error(`add module: ${added.status} ${added.text}`);
    await expectOk(
      "publish",
      api("PATCH", `/api/courses/${course.json.id}/publish`, { cookie: state.admin }),
    );
    await expectOk(
      "enrol",
      api("POST", "/api/enrollments", {
        cookie: state.admin,
        body: {
          userId: state.learner.id,
          courseId: course.json.id,
          progress: 0,
          completedModules: [],
          isCompleted: false,
        },
      }),
    );
    state.courses.set(course.json.id, {
      moduleId,
      auIds: added.json.package.items.map((i) => i.id),
    });
    return course.json.id;
  },

  getLaunchUrl: async (courseId, auIndex, _actor, { launchMode } = {}) => {
    const course = state.courses.get(courseId);
    if (!course) throw new Error(`unknown course ${courseId}`);
    const launched = await expectOk(
      "launch",
      api("POST", `/api/courses/${courseId}/modules/${course.moduleId}/cmi5/launch`, {
        cookie: state.learner.cookie,
        body: { auId: course.auIds[auIndex], ...(launchMode ? { launchMode } : {}) },
      }),
    );
    const registration = new URL(launched.json.url).searchParams.get("registration");
    state.registrations.set(registration, courseId);
    state.sessions.set(launched.json.sessionId, { courseId, auIndex });
    return launched.json.url;
  },

  // The suite's statements must stay readable after each test: the courses stay, in the
  // run's own throwaway data directory.
  cleanup: async () => {},

  hasWaive: () => true,
  waiveAU: async (registration, auIndex, reason) => {
    const courseId = state.registrations.get(registration);
    const course = courseId && state.courses.get(courseId);
    if (!course) throw new Error(`unknown registration ${registration}`);
    await expectOk(
      "waive",
      api("POST", `/api/courses/${courseId}/modules/${course.moduleId}/cmi5/waive`, {
        cookie: state.admin,
        body: { userId: state.learner.id, auId: course.auIds[auIndex], reason },
      }),
    );
  },

  hasAbandon: () => true,
  abandonSession: async (sessionId) => {
    const session = state.sessions.get(sessionId);
    if (!session) throw new Error(`unknown session ${sessionId}`);
    await module.exports.getLaunchUrl(session.courseId, session.auIndex, undefined, {});
  },
};
