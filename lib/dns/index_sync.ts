/**
 * Keeps this instance's answer index in step with zone changes made by other
 * instances sharing one PostgreSQL store (docs/scaling.md, decision 8): each
 * change is announced at its commit (`ZoneRepo.announce`, NOTIFY on
 * "palisade_dns") and reloads that zone here; a poll of every zone's
 * (name, serial) each `pollMs` catches what a lost notification missed (the
 * LISTEN connection reconnecting), so every instance answers with a new
 * serial within about `pollMs`. The TSIG keyring, when given, is reloaded with
 * each poll too, so a key deleted on one instance stops verifying on every
 * other within about `pollMs`. Not needed over SQLite (one process).
 */
import { type Logger, silentLogger } from "../log/log.ts";
import type { ZoneRepo } from "./zone_repo.ts";

/** What the sync reloads: the answer index. */
export interface SyncedIndex {
  names(): string[];
  zone(name: string): { serial: number } | undefined;
  invalidate(zone: string): Promise<void>;
}

export interface IndexSyncOptions {
  /** Starts listening for announced zone changes; resolves with how to stop. */
  listen?: (onZone: (zone: string) => void) => Promise<{ unlisten(): Promise<void> }>;
  /** Milliseconds between polls of the zones' serials; 1000 when absent. */
  pollMs?: number;
  /** The in-memory TSIG keys (tsig/keyring.ts), reloaded with each poll. */
  keyring?: { load(): Promise<void> };
  log?: Logger;
}

/**
 * A zone reloaded for a serial and still not served (its keys cannot be read, or the store failed
 * meanwhile) is tried again after this long, not at every poll.
 */
const RETRY_MS = 30_000;

export class DnsIndexSync {
  /** Per zone, the stored serial last reloaded for and when. */
  readonly #tried = new Map<string, { serial: number; at: number }>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #polling: Promise<void> | undefined;
  readonly #log: Logger;

  constructor(
    private readonly index: SyncedIndex,
    private readonly zones: Pick<ZoneRepo, "serials">,
    private readonly opts: IndexSyncOptions = {},
  ) {
    this.#log = opts.log ?? silentLogger;
  }

  /** Listens (when it can) and starts polling. */
  async start(): Promise<void> {
    if (this.opts.listen) {
      const sub = await this.opts.listen((zone) => this.#reload(zone));
      this.#unlisten = () => sub.unlisten();
    }
    this.#timer = setInterval(() => void this.poll(), this.opts.pollMs ?? 1000);
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#unlisten?.();
    await this.#polling;
  }

  /** One poll: reloads every zone whose stored serial is not the served one, and drops deleted ones. */
  poll(): Promise<void> {
    this.#polling ??= this.#poll().finally(() => (this.#polling = undefined));
    return this.#polling;
  }

  async #poll(): Promise<void> {
    try {
      const stored = await this.zones.serials();
      const names = new Set(stored.map((z) => z.name));
      for (const { name, serial } of stored) {
        if (this.index.zone(name)?.serial === serial) continue;
        const tried = this.#tried.get(name);
        if (tried?.serial === serial && Date.now() - tried.at < RETRY_MS) continue;
        this.#tried.set(name, { serial, at: Date.now() });
        await this.index.invalidate(name);
      }
      for (const name of this.index.names()) if (!names.has(name)) await this.#reload(name);
      await this.opts.keyring?.load();
    } catch (err) {
      this.#log.warn("DNS index sync poll failed", { error: err });
    }
  }

  async #reload(zone: string): Promise<void> {
    this.#tried.delete(zone);
    try {
      await this.index.invalidate(zone);
    } catch (err) {
      this.#log.warn("DNS zone reload failed", { zone, error: err });
    }
  }
}
