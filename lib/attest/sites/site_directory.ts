/**
 * Each thread's in-memory view of the sites, so that `/init` finds a site by
 * its key and a heartbeat its site by the request's Origin with one Map
 * lookup. Every site change bumps a version number in shared memory
 * (`changed()`, called by the site service after commit); each lookup
 * compares it with the version this thread loaded (one atomic read) and
 * reloads from the store when it moved. A thread therefore sees a change on
 * its next request, whichever thread or process made it.
 */
import { ForbiddenError, ValidationError } from "../../errors.ts";
import type { SiteRepo, SiteRow } from "./site_repo.ts";
import { createSiteCounterTable, SiteCounters, type SiteCounterTable } from "./site_counters.ts";

/** What a lookup gives: the site's id, origins and counter slot (-1 without one). */
export interface SiteEntry {
  id: string;
  name: string;
  site_key: string;
  origins: ReadonlySet<string>;
  slot: number;
}

export interface SiteShared {
  /** Int32Array[1]: bumped on every site change. */
  version: SharedArrayBuffer;
  counters: SiteCounterTable;
}

export class SiteDirectory {
  readonly counters: SiteCounters;
  readonly #repo: Pick<SiteRepo, "all">;
  readonly #version: Int32Array;
  #loaded = -1;
  #byKey = new Map<string, SiteEntry>();
  #slotByOrigin = new Map<string, number>();
  #byOrigin = new Map<string, SiteEntry>();
  #entries: SiteEntry[] = [];

  constructor(repo: Pick<SiteRepo, "all">, shared: SiteShared, row = 0) {
    this.#repo = repo;
    this.#version = new Int32Array(shared.version);
    this.counters = new SiteCounters(shared.counters, row);
  }

  /** Tells every thread to reload (after a change has committed). */
  changed(): void {
    Atomics.add(this.#version, 0, 1);
  }

  #fresh(): void {
    const v = Atomics.load(this.#version, 0);
    if (v === this.#loaded) return;
    this.#load(this.#repo.all());
    this.#loaded = v;
  }

  #load(rows: SiteRow[]): void {
    const byKey = new Map<string, SiteEntry>();
    const slotByOrigin = new Map<string, number>();
    const byOrigin = new Map<string, SiteEntry>();
    const entries: SiteEntry[] = [];
    for (const r of rows) {
      const e: SiteEntry = {
        id: r.id,
        name: r.name,
        site_key: r.site_key,
        origins: new Set(r.origins),
        slot: r.counter_slot ?? -1,
      };
      byKey.set(r.site_key, e);
      entries.push(e);
      // Two sites may share an origin; its heartbeats count for the first by name.
      for (const o of r.origins) {
        if (!slotByOrigin.has(o)) slotByOrigin.set(o, e.slot);
        if (!byOrigin.has(o)) byOrigin.set(o, e);
      }
    }
    this.#byKey = byKey;
    this.#slotByOrigin = slotByOrigin;
    this.#byOrigin = byOrigin;
    this.#entries = entries;
  }

  /**
   * The site of `siteKey` for `/init` when the request comes from one of its
   * origins; an unknown key is a ValidationError, another origin a
   * ForbiddenError (and counted as refused for the site).
   */
  entryFor(siteKey: string, origin: string | null): SiteEntry {
    const entry = this.byKey(siteKey);
    if (!entry) {
      throw new ValidationError(`Unknown site key ${JSON.stringify(siteKey)}`, "site_key");
    }
    if (origin === null || !entry.origins.has(origin)) {
      this.counters.add(entry.slot, "initRefused");
      throw new ForbiddenError(
        `Origin ${JSON.stringify(origin)} is not one of the site's origins`,
        "origin",
      );
    }
    return entry;
  }

  /** The site with this key, or undefined. */
  byKey(siteKey: string): SiteEntry | undefined {
    this.#fresh();
    return this.#byKey.get(siteKey);
  }

  /** Whether some site lists this origin (CORS answers it then). */
  hasOrigin(origin: string): boolean {
    this.#fresh();
    return this.#slotByOrigin.has(origin);
  }

  /** True when no site is registered: the heartbeat path then skips the Origin header. */
  empty(): boolean {
    this.#fresh();
    return this.#entries.length === 0;
  }

  /** The counter slot of the site serving pages from `origin`, or -1. */
  slotOfOrigin(origin: string | null): number {
    if (origin === null) return -1;
    this.#fresh();
    return this.#slotByOrigin.get(origin) ?? -1;
  }

  /** The site serving pages from `origin` (the same one slotOfOrigin counts for), or undefined. */
  siteOfOrigin(origin: string | null): SiteEntry | undefined {
    if (origin === null) return undefined;
    this.#fresh();
    return this.#byOrigin.get(origin);
  }

  /** Every site, by name (for /metrics and the dashboard). */
  entries(): readonly SiteEntry[] {
    this.#fresh();
    return this.#entries;
  }
}

/** Shared state for `rows` threads' directories. */
export function createSiteShared(rows: number): SiteShared {
  return { version: new SharedArrayBuffer(4), counters: createSiteCounterTable(rows) };
}
