import type { FastifyRequest } from "fastify";

/**
 * Why the assertion consumer service answers twice. The identity provider's page posts the
 * response from its own site, and on that cross-site post the browser keeps back Credo's
 * SameSite=Lax sign-on cookie, the proof that this browser started the sign-in. So the first
 * post only gets back a page of Credo's that posts the same two fields again, now from
 * Credo's own origin, with the cookie; only that second post is verified. The page runs no
 * inline script (the Content-Security-Policy allows scripts from Credo only): its one line
 * of script is served by Credo (`REPOST_SCRIPT_PATH`).
 */
export function isCrossSitePost(request: FastifyRequest): boolean {
  // Fetch metadata says where the post came from. A browser too old to send it never gets
  // the page: its post is verified at once, and without the cookie it is refused.
  const site = request.headers["sec-fetch-site"];
  return site !== undefined && site !== "same-origin";
}

export const REPOST_SCRIPT_PATH = "/api/sign-on/saml/repost.js";

export const REPOST_SCRIPT = "document.getElementById('saml-repost').submit();\n";

/** The page that posts the identity provider's answer again, from Credo's origin. */
export function repostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${html(name)}" value="${html(value)}">`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Signing in…</title></head>
<body>
<form id="saml-repost" method="post" action="${html(action)}">
${inputs}
<noscript><p>Your browser does not run scripts: continue to finish signing in.</p><button type="submit">Continue</button></noscript>
</form>
<script src="${REPOST_SCRIPT_PATH}"></script>
</body>
</html>
`;
}

function html(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/"/g, "&quot;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}
