/**
 * GET /diagnostics/all and GET /diagnostics/{subsystem}: named checks per
 * subsystem, each `{name, status, message, details}` with status `ok`,
 * `warn`, `fail` or `off` (the subsystem is not active here, e.g. the host
 * layer with the `none` driver), and the worst of them as the subsystem's
 * status. Subsystems are registered by name; each domain builds its own
 * report in its own `diagnostics.ts`, so this module knows none of them.
 */
import { isoTime } from "../clock.ts";
import { NotFoundError } from "../errors.ts";
import type { PgServerProbe, SqliteFileProbe, SystemRepo } from "./system_repo.ts";

export type CheckStatus = "ok" | "warn" | "fail" | "off";

export interface Check {
  name: string;
  status: CheckStatus;
  /** One sentence for a person. */
  message: string;
  /** Figures behind the message, for a program; `{}` when there are none. */
  details: Record<string, unknown>;
}

/** One subsystem's report; subsystems may add fields of their own (e.g. tunnels' `host`). */
export interface SubsystemReport {
  subsystem: string;
  status: CheckStatus;
  checks: Check[];
}

export interface DiagnosticsReport {
  status: "ok" | "warn" | "fail";
  generated_at: string;
  subsystems: SubsystemReport[];
}

export type DiagnosticsProbe = () => Promise<SubsystemReport> | SubsystemReport;

/** A check; `details` defaults to `{}`. */
export function check(
  name: string,
  status: CheckStatus,
  message: string,
  details: Record<string, unknown> = {},
): Check {
  return { name, status, message, details };
}

/** The worst status of `checks`; `off` only when every check is off. */
export function worstStatus(checks: { status: CheckStatus }[]): CheckStatus {
  if (checks.some((c) => c.status === "fail")) return "fail";
  if (checks.some((c) => c.status === "warn")) return "warn";
  if (checks.length && checks.every((c) => c.status === "off")) return "off";
  return "ok";
}

/** A WAL past this size means checkpoints are not keeping up (a long reader, a stuck writer). */
export const WAL_WARN_BYTES = 256 * 1024 * 1024;

/** Open connections past this share of `max_connections` warn: new instances may be refused. */
export const CONNECTIONS_WARN_SHARE = 0.8;

/**
 * The store's checks: it answers a query, its schema is the version this
 * build migrates to (`expectedVersion`), and the engine's own: on SQLite WAL
 * mode, `PRAGMA quick_check` and a WAL that is not runaway; on PostgreSQL
 * the server's version and its connections against `max_connections`.
 */
export async function databaseDiagnostics(
  db: Pick<SystemRepo, "ping" | "schemaVersion" | "probe">,
  expectedVersion: number,
): Promise<SubsystemReport> {
  const checks: Check[] = [];
  try {
    await db.ping();
  } catch (err) {
    checks.push(check("query", "fail", (err as Error).message));
    return { subsystem: "database", status: "fail", checks };
  }
  checks.push(check("query", "ok", "The store answers queries"));
  checks.push(
    ...(db.probe.engine === "sqlite" ? sqliteChecks(db.probe) : await pgChecks(db.probe)),
  );
  const version = await db.schemaVersion();
  checks.push(
    check(
      "schema_version",
      version === expectedVersion ? "ok" : "fail",
      version === expectedVersion
        ? `Schema version ${version}`
        : `Schema version ${version}, this build expects ${expectedVersion}`,
      { version, expected: expectedVersion },
    ),
  );
  return { subsystem: "database", status: worstStatus(checks), checks };
}

function sqliteChecks(db: SqliteFileProbe): Check[] {
  const mode = db.journalMode();
  const wal = db.walBytes();
  return [
    check("journal_mode", mode === "wal" ? "ok" : "warn", `journal_mode is ${mode}`, {
      journal_mode: mode ?? null,
    }),
    integrityCheck(db),
    check(
      "wal_size",
      wal !== null && wal > WAL_WARN_BYTES ? "warn" : "ok",
      wal === null ? "No WAL file" : `The WAL holds ${wal} bytes`,
      { wal_bytes: wal, warn_above_bytes: WAL_WARN_BYTES },
    ),
  ];
}

async function pgChecks(db: PgServerProbe): Promise<Check[]> {
  const { open, max } = await db.connections();
  const warnAt = Math.floor(max * CONNECTIONS_WARN_SHARE);
  return [
    check("server_version", "ok", `PostgreSQL ${await db.serverVersion()}`),
    check(
      "connections",
      open > warnAt ? "warn" : "ok",
      `${open} of ${max} connections open`,
      { open, max, warn_above: warnAt },
    ),
  ];
}

function integrityCheck(db: SqliteFileProbe): Check {
  let problems: string[];
  try {
    problems = db.quickCheck();
  } catch (err) {
    // A badly damaged file makes the pragma itself fail.
    return check("integrity", "fail", (err as Error).message, { problems: [] });
  }
  if (!problems.length) return check("integrity", "ok", "quick_check found no problems");
  return check(
    "integrity",
    "fail",
    `quick_check found ${problems.length} problem(s)`,
    { problems: problems.slice(0, 20) },
  );
}

export class Diagnostics {
  #probes = new Map<string, DiagnosticsProbe>();

  /** Adds (or replaces) the probe of subsystem `name`. */
  register(name: string, probe: DiagnosticsProbe): this {
    this.#probes.set(name, probe);
    return this;
  }

  /** Names of the registered subsystems, in registration order. */
  get names(): string[] {
    return [...this.#probes.keys()];
  }

  /** One subsystem; NotFoundError naming the known ones for another name. */
  async run(name: string): Promise<SubsystemReport> {
    const probe = this.#probes.get(name);
    if (!probe) {
      throw new NotFoundError(
        `Diagnostics subsystem ${JSON.stringify(name)} does not exist; use one of ${
          this.names.join(", ")
        }`,
        "subsystem",
      );
    }
    try {
      return await probe();
    } catch (err) {
      // A probe that throws is itself a finding, not a failed request.
      return {
        subsystem: name,
        status: "fail",
        checks: [check("probe", "fail", (err as Error).message)],
      };
    }
  }

  /** Every subsystem, run concurrently; `off` subsystems count as ok. */
  async all(): Promise<DiagnosticsReport> {
    const subsystems = await Promise.all(this.names.map((n) => this.run(n)));
    const worst = worstStatus(subsystems);
    return {
      status: worst === "off" ? "ok" : worst,
      generated_at: isoTime(Date.now()),
      subsystems,
    };
  }
}
