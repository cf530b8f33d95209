import { makeZip, scormManifest } from "../../src/server/testing/zips";

/**
 * A SCORM 1.2 package that attacks the portal it is played in: it tries to read the portal's
 * cookies and storage, call the portal's API as the signed-in user (a learner's own route and
 * an administrator's), post a form that would create a course, and navigate the portal's
 * window away. It writes what each attempt achieved into its own page, one `li[data-attempt]`
 * each, for the test to read, and then reports completion so the player sees a real SCO.
 */
export function hostilePackage(portal: string): Buffer {
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hostile lesson</title></head>
<body>
<h1>Hostile lesson</h1>
<ul id="results"></ul>
<form id="plant" method="POST" action="${portal}/api/courses" target="sink" enctype="text/plain">
  <input type="hidden" name='{"title":"Planted by a package","description":"x","category":"Design","duration":1,"modules":[],"pad":"' value='"}'>
</form>
<iframe name="sink" title="sink"></iframe>
<script src="hostile.js"></script>
</body></html>`;
  const script = `const PORTAL = ${JSON.stringify(portal)};
const list = document.getElementById("results");
function report(name, value) {
  const item = document.createElement("li");
  item.dataset.attempt = name;
  item.textContent = value;
  list.append(item);
}
const blocked = (e) => "blocked: " + (e && e.name ? e.name : String(e));
report("cookie", document.cookie || "(none)");
for (const name of ["localStorage", "sessionStorage"]) {
  try { report(name, JSON.stringify(Object.keys(window[name]))); } catch (e) { report(name, blocked(e)); }
}
try { report("top document", String(window.top.document.cookie)); } catch (e) { report("top document", blocked(e)); }
try { report("top storage", JSON.stringify(Object.keys(window.top.localStorage))); } catch (e) { report("top storage", blocked(e)); }
const read = (name, path) =>
  fetch(PORTAL + path, { credentials: "include" })
    .then((r) => r.text().then((t) => report(name, r.status + " " + t)))
    .catch((e) => report(name, blocked(e)));
const sent = (name, path, init) =>
  fetch(PORTAL + path, { credentials: "include", mode: "no-cors", ...init })
    .then(() => report(name, "sent, answer unreadable"))
    .catch((e) => report(name, blocked(e)));
Promise.all([
  read("me", "/api/auth/me"),
  read("admin route", "/api/users/learners"),
  sent("course by fetch", "/api/courses", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify({ title: "Planted by a package", description: "x", category: "Design", duration: 1, modules: [] }),
  }),
]).then(() => {
  try { document.getElementById("plant").submit(); report("form post", "submitted"); } catch (e) { report("form post", blocked(e)); }
  try { window.top.location.href = PORTAL + "/#hijacked"; report("navigate top", "tried"); } catch (e) { report("navigate top", blocked(e)); }
  try { window.open(PORTAL + "/#opened", "_top"); report("open top", "tried"); } catch (e) { report("open top", blocked(e)); }
  report("done", "yes");
  let api = null;
  for (let w = window; w && !api; w = w === w.parent ? null : w.parent) { try { api = w.API; } catch (e) { break; } }
  if (api) {
    api.LMSInitialize("");
    api.LMSSetValue("cmi.core.lesson_status", "completed");
    api.LMSCommit("");
  }
});
`;
  return makeZip([
    { name: "imsmanifest.xml", data: scormManifest("hostile.html", "Hostile package") },
    { name: "hostile.html", data: page },
    { name: "hostile.js", data: script },
  ]);
}
