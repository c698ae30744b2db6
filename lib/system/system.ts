/**
 * Health, version and the operational overview of `/api/v1/system`. Other
 * subsystems contribute their counts through `SystemProbe`s, so this module
 * does not depend on them.
 */
import type { Clock } from "../clock.ts";
import { VERSION } from "../version.ts";
import type { SystemRepo } from "./system_repo.ts";

export interface Health {
  status: "ok" | "error";
  database: "ok" | "error";
}

export interface VersionInfo {
  version: string;
  commit: string;
  deno: string;
  v8: string;
  typescript: string;
  /** The API version of the paths (`v1`: `/api/v1`). */
  api: string;
  /** Where the compatibility policy of `/api/v1` is written. */
  compatibility: string;
}

/** The compatibility policy of both APIs, a path in the repository (served by no listener). */
export const COMPATIBILITY_POLICY = "docs/compatibility.md";

/** A subsystem's contribution to the overview and to the health page. */
export interface SystemProbe {
  name: string;
  /** Counts and states shown in the overview; must be cheap (the tunnel counts are a query). */
  summary(): Record<string, unknown> | Promise<Record<string, unknown>>;
}

export class SystemService {
  #probes: SystemProbe[] = [];
  #startedAt: number;
  /** Bound listener addresses, filled once the listeners are up. */
  listeners: Record<string, string> = {};

  constructor(
    private readonly repo: SystemRepo,
    private readonly clock: Clock,
    private readonly commit: string,
  ) {
    this.#startedAt = clock.now();
  }

  /** Adds a subsystem to the overview. */
  addProbe(probe: SystemProbe): void {
    this.#probes.push(probe);
  }

  /** Store reachability: a trivial query must succeed. */
  async health(): Promise<Health> {
    try {
      await this.repo.ping();
      return { status: "ok", database: "ok" };
    } catch {
      return { status: "error", database: "error" };
    }
  }

  /** Release and build information. */
  version(): VersionInfo {
    return {
      version: VERSION,
      commit: this.commit,
      deno: Deno.version.deno,
      v8: Deno.version.v8,
      typescript: Deno.version.typescript,
      api: "v1",
      compatibility: COMPATIBILITY_POLICY,
    };
  }

  /** Counts across subsystems for the overview. */
  async overview(): Promise<Record<string, unknown>> {
    const uptime = Math.floor((this.clock.now() - this.#startedAt) / 1000);
    const health = await this.health();
    const counts = await this.repo.counts(this.clock.now());
    const out: Record<string, unknown> = {
      version: VERSION,
      uptime_seconds: uptime,
      health,
      listeners: this.listeners,
      users: counts.users,
      active_sessions: counts.activeSessions,
      api_tokens: counts.apiTokens,
      audit_records: counts.auditRecords,
    };
    for (const p of this.#probes) out[p.name] = await p.summary();
    return out;
  }
}
