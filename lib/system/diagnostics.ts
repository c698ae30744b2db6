/**
 * GET /diagnostics/all and GET /diagnostics/{subsystem}: named checks per
 * subsystem, each `ok`, `warning`, `error` or `off`, and the worst of them as
 * the subsystem's status. Subsystems are registered by name so that DNS and
 * attestation can add theirs without this module knowing them.
 */
import { isoTime } from "../clock.ts";
import { NotFoundError } from "../errors.ts";
import type { SystemRepo } from "./system_repo.ts";

export type CheckStatus = "ok" | "warning" | "error" | "off";

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
}

/** One subsystem's report; subsystems may add fields of their own (e.g. tunnels' `host`). */
export interface SubsystemReport {
  subsystem: string;
  status: CheckStatus;
  checks: Check[];
}

export interface DiagnosticsReport {
  status: "ok" | "warning" | "error";
  generated_at: string;
  subsystems: SubsystemReport[];
}

export type DiagnosticsProbe = () => Promise<SubsystemReport> | SubsystemReport;

/** The worst status of `checks`; `off` only when every check is off. */
export function worstStatus(checks: { status: CheckStatus }[]): CheckStatus {
  if (checks.some((c) => c.status === "error")) return "error";
  if (checks.some((c) => c.status === "warning")) return "warning";
  if (checks.length && checks.every((c) => c.status === "off")) return "off";
  return "ok";
}

/** The store's own checks: it answers a query and runs in WAL mode. */
export function databaseDiagnostics(
  db: Pick<SystemRepo, "ping" | "journalMode">,
): SubsystemReport {
  const checks: Check[] = [];
  try {
    db.ping();
    checks.push({ name: "query", status: "ok", detail: "The store answers queries" });
    const mode = db.journalMode();
    checks.push({
      name: "journal_mode",
      status: mode === "wal" ? "ok" : "warning",
      detail: `journal_mode is ${mode}`,
    });
  } catch (err) {
    checks.push({ name: "query", status: "error", detail: (err as Error).message });
  }
  return { subsystem: "database", status: worstStatus(checks), checks };
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
      );
    }
    try {
      return await probe();
    } catch (err) {
      // A probe that throws is itself a finding, not a failed request.
      return {
        subsystem: name,
        status: "error",
        checks: [{ name: "probe", status: "error", detail: (err as Error).message }],
      };
    }
  }

  /** Every subsystem, run concurrently. */
  async all(): Promise<DiagnosticsReport> {
    const subsystems = await Promise.all(this.names.map((n) => this.run(n)));
    const status = subsystems.some((s) => s.status === "error")
      ? "error"
      : subsystems.some((s) => s.status === "warning")
      ? "warning"
      : "ok";
    return { status, generated_at: isoTime(Date.now()), subsystems };
  }
}
