/**
 * A throwaway PostgreSQL cluster for one test file: `initdb` into a temporary
 * folder, `pg_ctl start` on a free loopback port with its unix socket in that
 * folder, trust authentication for loopback only, one database created.
 * Disposing stops the server and removes the folder. Durability is off
 * (fsync, synchronous_commit, full-page writes): the data dies with the test,
 * and startup and commits are faster without it.
 *
 * As root the server runs as the `postgres` OS user (PostgreSQL refuses root),
 * which owns the folder. Without PostgreSQL the caller's test prints a SKIP
 * line, like the other system helpers (`haveSystem`).
 */
import { haveSystem, isRoot, run, which } from "./system.ts";
import { freePort } from "./ports.ts";

export interface PgCluster extends AsyncDisposable {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` */
  url: string;
  /** A URL for another database of the same cluster (created by `createDatabase`). */
  urlOf(database: string): string;
  /** Creates one more empty database in the cluster. */
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

const START_TIMEOUT_S = 30;
const STOP_TIMEOUT_S = 15;

/** Debian puts the server binaries in /usr/lib/postgresql/<major>/bin, not on PATH. */
function pgBinDir(): string | null {
  const onPath = which("pg_ctl");
  if (onPath) {
    const real = Deno.realPathSync(onPath);
    return real.slice(0, real.lastIndexOf("/"));
  }
  let best: { major: number; dir: string } | null = null;
  try {
    for (const entry of Deno.readDirSync("/usr/lib/postgresql")) {
      const major = Number(entry.name);
      const dir = `/usr/lib/postgresql/${entry.name}/bin`;
      if (!Number.isFinite(major) || !hasTool(dir, "pg_ctl")) continue;
      if (!best || major > best.major) best = { major, dir };
    }
  } catch { /* not installed */ }
  return best?.dir ?? null;
}

function hasTool(dir: string, tool: string): boolean {
  try {
    return Deno.statSync(`${dir}/${tool}`).isFile;
  } catch {
    return false;
  }
}

/**
 * True when a cluster can be started here; otherwise prints the SKIP line
 * (or throws when PALISADE_REQUIRE_SYSTEM_TESTS=1).
 */
export function havePostgres(testName: string): boolean {
  // "postgresql" is the Debian package that brings the server binaries.
  if (!pgBinDir()) return haveSystem(testName, ["postgresql"]);
  return haveSystem(testName, isRoot() ? ["runuser"] : []);
}

/** Runs a PostgreSQL binary as the `postgres` user when we are root, as ourselves otherwise. */
function pgRun(bin: string, tool: string, args: string[], timeoutMs: number) {
  const path = `${bin}/${tool}`;
  return isRoot()
    ? run("runuser", ["-u", "postgres", "--", path, ...args], { timeoutMs })
    : run(path, args, { timeoutMs });
}

async function chownToPostgres(path: string): Promise<void> {
  if (!isRoot()) return;
  const uid = Number((await run("id", ["-u", "postgres"])).stdout.trim());
  const gid = Number((await run("id", ["-g", "postgres"])).stdout.trim());
  await Deno.chown(path, uid, gid);
}

/** Starts a cluster; call only after `havePostgres` returned true. */
export async function startPostgres(database = "palisade"): Promise<PgCluster> {
  const bin = pgBinDir();
  if (!bin) throw new Error("PostgreSQL server binaries not found");
  const dir = await Deno.makeTempDir({ prefix: "palisade-pg-" });
  await Deno.chmod(dir, 0o700);
  await chownToPostgres(dir);
  const data = `${dir}/data`;
  const port = freePort();
  let started = false;
  const stop = async () => {
    try {
      if (started) {
        await pgRun(bin, "pg_ctl", [
          "stop",
          "-D",
          data,
          "-m",
          "immediate",
          "-w",
          "-t",
          `${STOP_TIMEOUT_S}`,
        ], (STOP_TIMEOUT_S + 5) * 1000);
        started = false;
      }
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  };
  try {
    await pgRun(bin, "initdb", [
      "-D",
      data,
      "-U",
      "postgres",
      "-A",
      "trust",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ], 120_000);
    // Trust only over the socket in our own folder and loopback TCP.
    await Deno.writeTextFile(
      `${data}/pg_hba.conf`,
      "local all all trust\nhost all all 127.0.0.1/32 trust\n",
    );
    const options = [
      "-c listen_addresses=127.0.0.1",
      `-c port=${port}`,
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c archive_mode=off",
      "-c wal_level=minimal",
      "-c max_wal_senders=0",
      "-c max_connections=100",
    ].join(" ");
    await pgRun(bin, "pg_ctl", [
      "start",
      "-D",
      data,
      "-l",
      `${dir}/server.log`,
      "-w",
      "-t",
      `${START_TIMEOUT_S}`,
      "-o",
      options,
    ], (START_TIMEOUT_S + 5) * 1000);
    started = true;
    const psql = (sql: string) =>
      pgRun(bin, "psql", [
        "-h",
        dir,
        "-p",
        `${port}`,
        "-U",
        "postgres",
        "-d",
        "postgres",
        "-v",
        "ON_ERROR_STOP=1",
        "-qc",
        sql,
      ], 30_000);
    const createDatabase = async (name: string) => {
      if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Bad database name "${name}"`);
      await psql(`CREATE DATABASE ${name}`);
    };
    await createDatabase(database);
    const urlOf = (name: string) => `postgres://postgres@127.0.0.1:${port}/${name}`;
    return { url: urlOf(database), urlOf, createDatabase, stop, [Symbol.asyncDispose]: stop };
  } catch (err) {
    const log = await Deno.readTextFile(`${dir}/server.log`).catch(() => "");
    await stop();
    throw new Error(`PostgreSQL cluster did not start: ${(err as Error).message}\n${log}`);
  }
}

/**
 * One throwaway cluster for a test file, started on first use, with a fresh
 * database per call of `freshUrl()`; `stop()` at the end of the file's test.
 */
export function clusterPerFile(): { freshUrl(): Promise<string>; stop(): Promise<void> } {
  let cluster: PgCluster | null = null;
  let databases = 0;
  return {
    async freshUrl() {
      cluster ??= await startPostgres();
      const name = `t${++databases}`;
      await cluster.createDatabase(name);
      return cluster.urlOf(name);
    },
    async stop() {
      await cluster?.stop();
    },
  };
}
