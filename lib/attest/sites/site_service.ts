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
import type { Transactor } from "../../store/transactor.ts";
import { randomHex } from "../random_pool.ts";
import type { RecentSession, SessionSignals } from "../signals/signals.ts";
import { type TokenCounters, type TokenFigures, tokenFigures } from "../tokens/token_counters.ts";
import { SITE_SLOTS, type SiteFigures } from "./site_counters.ts";
import type { SiteDirectory } from "./site_directory.ts";
import { SiteHistory } from "./site_history.ts";
import type { SiteRepo, SiteRow } from "./site_repo.ts";
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
  repo: SiteRepo;
  tx: Transactor;
  audit: AuditLog;
  events: EventBus;
  clock: Clock;
  /** What the site figures are read from (the attestation service of the main thread). */
  attest: {
    /** The site directory: told of every change, and its per-site heartbeat counters. */
    sites: Pick<SiteDirectory, "changed" | "counters">;
    /** The token counters (summed over every thread); zeros without them. */
    tokens: { counters: Pick<TokenCounters, "get"> } | null;
    signals: Pick<SessionSignals, "recentOfSite">;
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
    this.history = new SiteHistory(() => this.listWithFigures(), d.events, d.clock);
  }

  list(): SiteView[] {
    return this.d.repo.all().map(siteView);
  }

  get(id: string): SiteView {
    return siteView(this.#require(id));
  }

  /** Every site with its figures since start (zeros for a site past SITE_SLOTS), for the dashboard. */
  listWithFigures(): (SiteView & { figures: SiteFiguresAll })[] {
    return this.d.repo.all().map((r) => ({ ...siteView(r), figures: this.#figures(r) }));
  }

  /** One site with its figures since start. */
  getWithFigures(id: string): SiteView & { figures: SiteFiguresAll } {
    const r = this.#require(id);
    return { ...siteView(r), figures: this.#figures(r) };
  }

  /** The site's latest sessions with measured signals, newest first (the site must exist). */
  recentSessions(id: string, limit: number): RecentSession[] {
    this.#require(id);
    return this.d.attest.signals.recentOfSite(id, limit);
  }

  #figures(r: SiteRow): SiteFiguresAll {
    return {
      ...this.d.attest.sites.counters.figures(r.counter_slot),
      tokens: tokenFigures(
        this.d.attest.tokens?.counters ?? { get: () => 0 },
        r.counter_slot,
        r.id,
      ),
    };
  }

  create(input: SiteInput, actor: string): SiteWithSecret {
    const what = `Cannot create site ${JSON.stringify(input?.name)}`;
    const fields = this.#checked(input, what);
    const secret = newSecret();
    const id = crypto.randomUUID();
    const { repo, tx, audit, clock } = this.d;
    const row = tx.tx(() => {
      this.#uniqueName(fields.name, null, what);
      const used = new Set(repo.all().map((s) => s.counter_slot));
      let slot: number | null = null;
      for (let i = 0; i < SITE_SLOTS && slot === null; i++) if (!used.has(i)) slot = i;
      const now = clock.now();
      const r: SiteRow = {
        id,
        ...fields,
        site_key: `pk_${randomHex(16)}`,
        secret_hash: sha256Hex(secret),
        counter_slot: slot,
        created_at: now,
        updated_at: now,
      };
      repo.insert(r);
      audit.record({
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

  update(id: string, input: SiteInput, actor: string): SiteView {
    const current = this.#require(id);
    const what = `Cannot update site "${current.name}"`;
    const fields = this.#checked(input, what);
    const { repo, tx, audit, clock } = this.d;
    tx.tx(() => {
      this.#uniqueName(fields.name, id, what);
      repo.update(id, fields, clock.now());
      audit.record({
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
    return this.get(id);
  }

  /** A new secret; the old one stops working at once. */
  rotateSecret(id: string, actor: string): SiteWithSecret {
    const current = this.#require(id);
    const secret = newSecret();
    const { repo, tx, audit, clock } = this.d;
    tx.tx(() => {
      repo.setSecretHash(id, sha256Hex(secret), clock.now());
      audit.record({
        actor,
        event_type: "attest_site.secret_rotated",
        message: `Rotated the secret of attestation site "${current.name}"`,
        resource_type: "attest_site",
        resource_id: id,
      });
    });
    this.#announce(id, "secret_rotated");
    return { ...this.get(id), secret };
  }

  delete(id: string, actor: string): void {
    const current = this.#require(id);
    const { repo, tx, audit } = this.d;
    tx.tx(() => {
      repo.delete(id);
      audit.record({
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
  authenticate(secret: unknown): SiteView | null {
    if (typeof secret !== "string" || !secret.startsWith("sk_")) return null;
    const hash = sha256Hex(secret);
    const row = this.d.repo.bySecretHash(hash);
    return row && safeEqual(hash, row.secret_hash) ? siteView(row) : null;
  }

  /** The id of the site a session was created for, or null. */
  siteOfSession(sessionId: string): string | null {
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

  #uniqueName(name: string, self: string | null, what: string): void {
    const other = this.d.repo.byName(name);
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

  #require(id: string): SiteRow {
    const row = this.d.repo.byId(id);
    if (!row) throw new NotFoundError(`Site "${id}" not found`, "id");
    return row;
  }
}
