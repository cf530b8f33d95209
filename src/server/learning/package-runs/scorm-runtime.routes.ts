import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { FastifyInstance } from "fastify";
import { notFound } from "../../plugins/errors";

const require = createRequire(import.meta.url);

/** The files the launcher page loads, by the name it asks for them. */
const SCRIPTS: Record<string, string> = {
  "scorm-launcher.js": new URL("./runtime/scorm-launcher.js", import.meta.url).pathname,
  // scorm-again's browser bundles (each sets window.Scorm12API / window.Scorm2004API).
  "scorm12.js": require.resolve("scorm-again/scorm12/min"),
  "scorm2004.js": require.resolve("scorm-again/scorm2004/min"),
};

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The launcher page: the run time's scripts and the frame the SCO runs in. */
const launcherPage = (portalOrigin: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="portal-origin" content="${escapeAttribute(portalOrigin)}">
<title>Course content</title>
<link rel="stylesheet" href="/runtime/scorm.css">
</head>
<body>
<iframe id="sco" title="Course content"></iframe>
<script src="/runtime/scorm12.js"></script>
<script src="/runtime/scorm2004.js"></script>
<script src="/runtime/scorm-launcher.js"></script>
</body>
</html>
`;

const STYLES =
  "html,body{margin:0;height:100%;background:#fff}#sco{display:block;border:0;width:100%;height:100%}";

/**
 * The SCORM run time on the content origin: `/runtime/scorm.html` hosts scorm-again for the
 * SCO framed inside it, and reaches the portal only by messages to the portal's page
 * (docs/packages.md). Only the portal may frame it.
 */
export function registerScormRuntimeRoutes(
  content: FastifyInstance,
  deps: { portalOrigin: string },
) {
  const page = launcherPage(deps.portalOrigin);
  const policy = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "frame-src 'self'",
    `frame-ancestors ${deps.portalOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  const scripts = new Map<string, Promise<string>>();

  content.get("/runtime/scorm.html", async (_request, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .header("content-security-policy", policy)
      .header("cache-control", "no-cache")
      .send(page),
  );

  content.get("/runtime/scorm.css", async (_request, reply) =>
    reply.type("text/css; charset=utf-8").header("cache-control", "max-age=3600").send(STYLES),
  );

  content.get<{ Params: { name: string } }>("/runtime/:name", async (request, reply) => {
    const file = SCRIPTS[request.params.name];
    if (!file || !Object.hasOwn(SCRIPTS, request.params.name)) {
      throw notFound("request.not_found", "Not found.");
    }
    let text = scripts.get(file);
    if (!text) {
      text = readFile(file, "utf8");
      scripts.set(file, text);
    }
    return reply
      .type("text/javascript; charset=utf-8")
      .header("cache-control", "no-cache")
      .send(await text);
  });
}
