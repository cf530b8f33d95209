#!/usr/bin/env node
// `npm run demo`: a fresh data directory filled with demo content, then the portal.
import { rmSync } from "node:fs";
import { resolve } from "node:path";

const dataDir = resolve(process.env.DEMO_DATA_DIR ?? "./data/demo");
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.PASSWORD_SETUP_MODE ??= "open";
process.env.ADMIN_SETUP_KEY ??= "demo-admin-setup-key";

const { register } = await import("tsx/esm/api");
register();
console.log(`Seeding demo content into ${dataDir} ...`);
const { seedDemo, DEMO_LEARNER_PASSWORD } = await import("./seed-demo.ts");
const result = await seedDemo(dataDir);
const courses = [...new Set(result.stages.map((s) => s.course))];
console.log(`
  Demo accounts
  ─────────────
  Administrator  ${result.admin.email}  /  ${result.admin.password}
  Learners       ${result.learnerEmails.slice(0, 3).join(", ")}, ... (${result.learnerEmails.length} in all)
                 password for every learner: ${DEMO_LEARNER_PASSWORD}
  Invited        ${result.invited} (added and enrolled, has not signed in yet)
  Restricted     ${result.restricted} (cannot sign in)
  Admin key      ${process.env.ADMIN_SETUP_KEY} (for 'Administrator setup' on the sign-in page)

  Accredited provider: Credo Learning (Settings → Credit catalogue: ANCC, NASBA, ACCME/AMA)
${courses
  .map(
    (course) =>
      `  ${course}\n${result.stages
        .filter((s) => s.course === course)
        .map(
          (s) =>
            `                 ${s.email.padEnd(18)} ${s.stage}${s.scores.length ? ` (exam ${s.scores.map((n) => `${n}%`).join(", then ")})` : ""}`,
        )
        .join("\n")}`,
  )
  .join("\n")}
`);
await import("./start.mjs");
