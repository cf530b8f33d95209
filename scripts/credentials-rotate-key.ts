/**
 * `npm run credentials:rotate-key`: retires the key that signs Open Badges credentials and
 * makes a new one that signs from now on. The retired key stays in the DID document
 * (/.well-known/did.json), so every credential issued before still verifies.
 *
 * Uses DATABASE_URL (the portal may keep running: each signature reads the current key), or
 * the embedded database in DATA_DIR (stop the portal first: its lock says so).
 */
import { readCommandLine, runTool } from "./command-line";

const TOOL = "credentials:rotate-key";
readCommandLine(
  TOOL,
  `Usage: npm run credentials:rotate-key

Retires the key that signs the portal's Open Badges credentials and makes a new one. Credentials
issued before keep verifying: the retired key stays published in the DID document. Uses
DATABASE_URL, or the embedded database in DATA_DIR (stop the portal first). Exit code 0 when the
new key signs, 1 when the rotation failed, 2 when an option is mistaken.`,
  {},
);
const { buildConfig } = await import("../src/server/config");
const { DataDirLockedError, expectExistingDatabase, openDatabase } = await import(
  "../src/server/db/client"
);
const { createCredentialKeys } = await import("../src/server/credit/credentials/credential-keys");
const { didWebOf } = await import("../src/server/credit/credentials/did-web");

await runTool(TOOL, async () => {
  const config = buildConfig();
  const did = didWebOf(config.publicUrl);
  expectExistingDatabase(config);
  console.log(`Opening the database of ${did}…`);
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  try {
    handle = await openDatabase(config);
  } catch (error) {
    throw error instanceof DataDirLockedError
      ? error
      : new Error(`Cannot open the database: ${String(error)}`);
  }
  try {
    const keys = createCredentialKeys({ db: handle.db, did });
    const { retired, signing } = await keys.rotate();
    console.log(retired ? `Retired ${did}#${retired}.` : "There was no signing key yet.");
    console.log(`New signing key: ${did}#${signing}`);
    const published = await keys.published();
    console.log(
      `The DID document publishes ${published.length} key${published.length === 1 ? "" : "s"}: credentials signed with any of them verify.`,
    );
  } finally {
    await handle.close();
  }
});
