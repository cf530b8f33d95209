/**
 * `npm run audit:verify`: links the events not yet in the chain, then walks the audit
 * trail's hash chain and reports the first row that does not fit: edited,
 * deleted or inserted. Exit code 0 when the chain is intact, 1 when it is broken, 2 when
 * the database cannot be opened.
 *
 * Uses DATABASE_URL, or the embedded database in DATA_DIR (stop the portal first: its lock
 * says so). Keep the printed head hash somewhere else (a ticket, an email): a chain can
 * only prove that nothing changed before the last hash you recorded outside it.
 */
import { readCommandLine } from "./command-line";

readCommandLine(
  "audit:verify",
  `Usage: npm run audit:verify

Links the audit events not yet in the chain, then checks the whole hash chain of DATABASE_URL
(or the embedded database in DATA_DIR: stop the portal first). Exit code 0 when it is intact,
1 when it is broken, 2 when the database cannot be opened or an option is mistaken.`,
  {},
);
const { buildConfig } = await import("../src/server/config");
const { DataDirLockedError, expectExistingDatabase, NoDatabaseError, openDatabase } = await import(
  "../src/server/db/client"
);
const { createAuditService } = await import("../src/server/platform/audit/audit.service");

const config = buildConfig();
let handle: Awaited<ReturnType<typeof openDatabase>>;
try {
  expectExistingDatabase(config);
  handle = await openDatabase(config);
} catch (error) {
  console.error(
    error instanceof DataDirLockedError || error instanceof NoDatabaseError
      ? error.message
      : `Cannot open the database: ${String(error)}`,
  );
  process.exit(2);
}
try {
  const report = await createAuditService({ db: handle.db }).verify();
  if (report.ok) {
    console.log(`Audit trail intact: ${report.checked} events checked.`);
    console.log(`Head: seq ${report.headSeq ?? 0}, hash ${report.headHash ?? "(empty trail)"}`);
    if (report.unlinked > 0) {
      console.warn(
        `${report.unlinked} events are not linked yet: appended during the check, or the linker fails (see above).`,
      );
    }
  } else {
    console.error(`Audit trail BROKEN at seq ${report.broken?.seq}: ${report.broken?.reason}`);
    console.error(`${report.checked} events before it check out.`);
    if (report.unlinked > 0) console.error(`${report.unlinked} events could not be linked.`);
  }
  process.exitCode = report.ok ? 0 : 1;
} finally {
  await handle.close();
}
