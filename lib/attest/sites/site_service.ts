/**
 * Attestation sites (docs/attestation_sites.md): an administrator registers
 * a website, its origins and token rules; the site key goes into its pages,
 * the secret (shown once, stored as SHA-256) to its server for siteverify.
 * Every change is audited (never the secret), announced as `SiteChanged`
 * after commit, and makes every thread reload its site directory.
 */
import { type Clock, isoTime } from "../../clock.ts";
import type { AuditLog } from "../../audit/audit.ts";
import { ConflictError, NotFoundError } from "../../errors.ts";
import type { EventBus } from "../../events/bus.ts";
import { randomToken, safeEqual, sha256Hex } from "../../auth/secret.ts";
import type { AsyncTransactor } from "../../store/async_transactor.ts";
import { randomHex } from "../random_pool.ts";
import type { RecentSession } from "../signals/signals.ts";
import { type TokenCounters, type TokenFigures, tokenFigures } from "../tokens/token_counters.ts";
import { SITE_SLOTS, type SiteFigures } from "./site_counters.ts";
import type { SiteDirectory } from "./site_directory.ts";
import { SiteHistory } from "./site_history.ts";
import type { SiteRepoAsync, SiteRow } from "./site_repo.ts";
import {
  checkIntegerIn,
  checkOrigins,
  checkSiteName,
  MIN_CHAIN_DEFAULT,
  MIN_CHAIN_MAX,
  MIN_CHAIN_MIN,
  TOKEN_TTL_DEFAULT,
  TOKEN_TTL_MAX,
  TOKEN_TTL_MIN,
} from "./site_rules.ts";

export interface SiteInput {
  name: string;
  origins: string[];
  min_chain?: number;
  token_ttl_s?: number;
}

/** A site as the API and the dashboard show it: no secret, no hash. */
export interface SiteView {
  id: string;
  name: string;
  site_key: string;
  origins: string[];
  min_chain: number;
  token_ttl_s: number;
  created_at: string;
  updated_at: string;
}

/** A site with its secret, answered once: on creation and on rotation. */
export type SiteWithSecret = SiteView & { secret: string };

export interface SiteDeps {
  repo: SiteRepoAsync;
  tx: AsyncTransactor;
  audit: AuditLog;
  events: EventBus;
  clock: Clock;
  /** What the site figures are read from (the attestation service of the main thread). */
  attest: {
    /**
     * The site directory: told of every change, its per-site heartbeat
     * counters, and its sites (what the history reads, without a query per tick).
     */
    sites: Pick<SiteDirectory, "changed" | "counters" | "entries">;
    /** The token counters (summed over every thread); zeros without them. */
    tokens: { counters: Pick<TokenCounters, "get"> } | null;
    /** A site's recent measured sessions (synchronous over SQLite's repository, or not). */
    signals: {
      recentOfSite(siteId: string, limit: number): RecentSession[] | Promise<RecentSession[]>;
    };
  };
}

/** A site's heartbeat and token figures since start. */
export type SiteFiguresAll = SiteFigures & { tokens: TokenFigures };

export function siteView(r: SiteRow): SiteView {
  return {
    id: r.id,
    name: r.name,
    site_key: r.site_key,
    origins: r.origins,
    min_chain: r.min_chain,
    token_ttl_s: r.token_ttl_s,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/** "sk_" and 43 base64url characters: 32 random bytes. */
function newSecret(): string {
  return `sk_${randomToken(32)}`;
}

export class SiteService {
  /** The sites' figures over time, for the dashboard; started and stopped with the services. */
  readonly history: SiteHistory;

  constructor(private readonly d: SiteDeps) {
    // The directory's sites: the figures are this instance's counters, so no query per tick.
    const read = () =>
      d.attest.sites.entries().map((e) => ({
        id: e.id,
        figures: this.#figures({ id: e.id, counter_slot: e.slot < 0 ? null : e.slot }),
      }));
    this.history = new SiteHistory(read, d.events, d.clock);
  }

  async list(): Promise<SiteView[]> {
    return (await this.d.repo.all()).map(siteView);
  }

  async get(id: string): Promise<SiteView> {
    return siteView(await this.#require(id));
  }

  /** Every site with its figures since start (zeros for a site past SITE_SLOTS), for the dashboard. */
  async listWithFigures(): Promise<(SiteView & { figures: SiteFiguresAll })[]> {
    return (await this.d.repo.all()).map((r) => ({ ...siteView(r), figures: this.#figures(r) }));
  }

  /** One site with its figures since start. */
  async getWithFigures(id: string): Promise<SiteView & { figures: SiteFiguresAll }> {
    const r = await this.#require(id);
    return { ...siteView(r), figures: this.#figures(r) };
  }

  /** The site's latest sessions with measured signals, newest first (the site must exist). */
  async recentSessions(id: string, limit: number): Promise<RecentSession[]> {
    await this.#require(id);
    return await this.d.attest.signals.recentOfSite(id, limit);
  }

  #figures(r: Pick<SiteRow, "id" | "counter_slot">): SiteFiguresAll {
    return {
      ...this.d.attest.sites.counters.figures(r.counter_slot),
      tokens: tokenFigures(
        this.d.attest.tokens?.counters ?? { get: () => 0 },
        r.counter_slot,
        r.id,
      ),
    };
  }

  async create(input: SiteInput, actor: string): Promise<SiteWithSecret> {
    const what = `Cannot create site ${JSON.stringify(input?.name)}`;
    const fields = this.#checked(input, what);
    const secret = newSecret();
    const id = crypto.randomUUID();
    const { repo, tx, audit, clock } = this.d;
    const secretHash = sha256Hex(secret);
    const row = await tx.tx(async () => {
      await this.#uniqueName(fields.name, null, what);
      const used = new Set((await repo.all()).map((s) => s.counter_slot));
      let slot: number | null = null;
      for (let i = 0; i < SITE_SLOTS && slot === null; i++) if (!used.has(i)) slot = i;
      const now = clock.now();
      const r: SiteRow = {
        id,
        ...fields,
        site_key: `pk_${randomHex(16)}`,
        secret_hash: secretHash,
        counter_slot: slot,
        created_at: now,
        updated_at: now,
      };
      await repo.insert(r);
      await audit.add({
        actor,
        event_type: "attest_site.created",
        message: `Created attestation site "${r.name}" (${r.site_key}) for ${r.origins.join(", ")}`,
        resource_type: "attest_site",
        resource_id: id,
      });
      return r;
    });
    // The slot may have counted a deleted site since start.
    if (row.counter_slot !== null) this.d.attest.sites.counters.clear(row.counter_slot);
    this.#announce(id, "created");
    return { ...siteView(row), secret };
  }

  async update(id: string, input: SiteInput, actor: string): Promise<SiteView> {
    const current = await this.#require(id);
    const what = `Cannot update site "${current.name}"`;
    const fields = this.#checked(input, what);
    const { repo, tx, audit, clock } = this.d;
    await tx.tx(async () => {
      await this.#uniqueName(fields.name, id, what);
      await repo.update(id, fields, clock.now());
      await audit.add({
        actor,
        event_type: "attest_site.updated",
        message: `Updated attestation site "${fields.name}": origins ${
          fields.origins.join(", ")
        }, min_chain ${fields.min_chain}, token_ttl_s ${fields.token_ttl_s}`,
        resource_type: "attest_site",
        resource_id: id,
      });
    });
    this.#announce(id, "updated");
    return await this.get(id);
  }

  /** A new secret; the old one stops working at once. */
  async rotateSecret(id: string, actor: string): Promise<SiteWithSecret> {
    const current = await this.#require(id);
    const secret = newSecret();
    const secretHash = sha256Hex(secret);
    const { repo, tx, audit, clock } = this.d;
    await tx.tx(async () => {
      await repo.setSecretHash(id, secretHash, clock.now());
      await audit.add({
        actor,
        event_type: "attest_site.secret_rotated",
        message: `Rotated the secret of attestation site "${current.name}"`,
        resource_type: "attest_site",
        resource_id: id,
      });
    });
    this.#announce(id, "secret_rotated");
    return { ...await this.get(id), secret };
  }

  async delete(id: string, actor: string): Promise<void> {
    const current = await this.#require(id);
    const { repo, tx, audit } = this.d;
    await tx.tx(async () => {
      await repo.delete(id);
      await audit.add({
        actor,
        event_type: "attest_site.deleted",
        message: `Deleted attestation site "${current.name}" (${current.site_key})`,
        resource_type: "attest_site",
        resource_id: id,
      });
    });
    this.#announce(id, "deleted");
  }

  /**
   * The site whose secret this is, or null. Found by the secret's SHA-256,
   * then compared in constant time (the index lookup alone would compare
   * hashes in variable time).
   */
  async authenticate(secret: unknown): Promise<SiteView | null> {
    if (typeof secret !== "string" || !secret.startsWith("sk_")) return null;
    const hash = sha256Hex(secret);
    const row = await this.d.repo.bySecretHash(hash);
    return row && safeEqual(hash, row.secret_hash) ? siteView(row) : null;
  }

  /** The id of the site a session was created for, or null. */
  siteOfSession(sessionId: string): Promise<string | null> {
    return this.d.repo.siteOfSession(sessionId);
  }

  #checked(input: SiteInput, what: string) {
    return {
      name: checkSiteName(input?.name, what),
      origins: checkOrigins(input?.origins, what),
      min_chain: checkIntegerIn(
        input?.min_chain ?? MIN_CHAIN_DEFAULT,
        "min_chain",
        MIN_CHAIN_MIN,
        MIN_CHAIN_MAX,
        what,
      ),
      token_ttl_s: checkIntegerIn(
        input?.token_ttl_s ?? TOKEN_TTL_DEFAULT,
        "token_ttl_s",
        TOKEN_TTL_MIN,
        TOKEN_TTL_MAX,
        what,
      ),
    };
  }

  async #uniqueName(name: string, self: string | null, what: string): Promise<void> {
    const other = await this.d.repo.byName(name);
    if (other && other.id !== self) {
      throw new ConflictError(`${what}: name "${name}" is already used`, {
        field: "name",
        code: "duplicate_name",
      });
    }
  }

  #announce(id: string, action: string): void {
    this.d.tx.afterCommit(() => {
      this.d.attest.sites.changed();
      this.d.events.emit("SiteChanged", { id, action });
    });
  }

  async #require(id: string): Promise<SiteRow> {
    const row = await this.d.repo.byId(id);
    if (!row) throw new NotFoundError(`Site "${id}" not found`, "id");
    return row;
  }
}
