import { buildApp } from "./app";
import { buildConfig, ConfigError, resolveAdminSetupKey } from "./config";
import { DataDirLockedError, openDatabase } from "./db/client";
import { startObjectsSweeper } from "./platform";
import { createObjectStore } from "./storage/create-object-store";

/** Longest wait for in-flight requests after SIGTERM before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  const config = buildConfig();
  const database = await openDatabase(config, {
    // Before the app's logger exists; the change feed reconnects on its own.
    log: (message, err) => console.warn(`${message}${err ? `: ${String(err)}` : ""}`),
  });
  const adminSetupKey = resolveAdminSetupKey(config);
  const app = await buildApp({ config, database, adminSetupKey });
  // Deletes abandoned uploads (cut off, never confirmed) hourly; one instance at a time.
  const stopSweeper = startObjectsSweeper({
    database,
    store: createObjectStore(config),
    log: app.log,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down");
    // After the grace period, connections still open are cut: their requests were never
    // acknowledged, so nothing a client saw succeed is lost. A last timer guards the exit.
    const grace = setTimeout(() => {
      app.log.warn("grace period over: closing the remaining connections");
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    grace.unref();
    const hardStop = setTimeout(() => {
      app.log.error("graceful shutdown timed out");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS * 2);
    hardStop.unref();
    try {
      await Promise.all([stopSweeper(), app.close()]);
    } finally {
      clearTimeout(grace);
      // The embedded database is closed cleanly: PGlite's directory would need recovery,
      // and the embedded PostgreSQL server would outlive the portal.
      await database.close();
      process.exit(0);
    }
  };
  process.once("SIGINT", () => void shutdown("SIGINT"));
  process.once("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  await app.content.listen({ port: config.contentPort, host: config.host });
  printWelcome(config, database.location ?? "PostgreSQL", adminSetupKey);
}

function printWelcome(
  config: ReturnType<typeof buildConfig>,
  databaseLocation: string,
  adminKey: { key: string | undefined; generated: boolean },
) {
  const lines = [
    "",
    `  ${config.productName} LMS is running at ${config.publicUrl}`,
    `  Database: ${databaseLocation}`,
    `  Package content: ${config.contentOrigin}`,
  ];
  if (adminKey.generated && adminKey.key) {
    lines.push(
      "",
      "  First start: create the first administrator on the sign-in page with",
      "  'Administrator setup' and this one-time admin key (shown only now):",
      "",
      `      ${adminKey.key}`,
      "",
      `  It is also kept in ${config.dataDir}/admin-setup-key until an administrator exists.`,
    );
  } else if (adminKey.key) {
    lines.push("", "  Administrators are created with 'Administrator setup' on the sign-in page.");
  }
  if (config.passwordSetupMode === "open") {
    // The spec's first-time setup: fine on a laptop, never on a portal others can reach.
    lines.push(
      "",
      "  Password setup is open (the spec's first-time setup): anyone who knows a",
      "  registered learner's email can set that learner's first password. Set",
      "  NODE_ENV=production (or PASSWORD_SETUP_MODE=invite) before others can reach",
      "  this portal: learners then set it only through their emailed invitation link.",
    );
  }
  console.log(`${lines.join("\n")}\n`);
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) {
    console.error(err.message);
  } else {
    console.error("Failed to start:", err);
  }
  process.exit(1);
});
