/**
 * The periodic pass: one host read every `pollMs` feeds PeerHandshake events
 * (only when a peer's latest handshake time changes) and drift detection
 * (DriftDetected when the set of differences changes, kept for diagnostics),
 * and InterfaceChanged when a device's link changes underneath (link_watch.ts).
 * It never resets a peer: with `autoReconcile` it applies the diff, which
 * touches only what differs; without, it only reports.
 */
import { isoTime } from "../clock.ts";
import type { LiveState } from "../host/driver.ts";
import type { TunnelContext } from "./context.ts";
import { LinkWatch } from "./link_watch.ts";
import type { ReconcileItem, Reconciler } from "./reconcile.ts";

export interface MonitorOptions {
  /** Interval between passes (PALISADE_HOST_POLL_MS), default 5000. */
  pollMs?: number;
  /** Apply drift automatically instead of only reporting it. */
  autoReconcile?: boolean;
  /** Called with each pass's host read, after the pass (peer quotas: lifecycle/enforce.ts). */
  onState?: (state: LiveState) => Promise<void>;
}

export interface PassResult {
  at: string;
  handshakes: number;
  /** null when skipped (host off, or a change was being applied). */
  drift: ReconcileItem[] | null;
  error: string | null;
}

export class TunnelMonitor {
  readonly pollMs: number;
  readonly autoReconcile: boolean;
  readonly #onState?: (state: LiveState) => Promise<void>;
  #handshakes = new Map<string, number>();
  #baseline = false;
  #driftSignature = "";
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<unknown> | null = null;
  #stopped = true;
  #links: LinkWatch;
  last: PassResult | null = null;
  /** The latest drift seen (empty when in sync). */
  lastDrift: ReconcileItem[] = [];

  constructor(
    private readonly ctx: TunnelContext,
    private readonly reconciler: Reconciler,
    opts: MonitorOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 5000;
    this.autoReconcile = opts.autoReconcile ?? false;
    this.#onState = opts.onState;
    this.#links = new LinkWatch(ctx.events);
  }

  /** Starts the periodic passes (the first one after `pollMs`). */
  start(): void {
    if (!this.ctx.host.driver.active || !this.#stopped) return;
    this.#stopped = false;
    this.#schedule();
  }

  #schedule() {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.pass().finally(() => {
        this.#running = null;
        this.#schedule();
      });
    }, this.pollMs);
  }

  /** Stops passes and waits for a pass in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** One pass now: read, emit handshakes, detect drift. */
  async pass(): Promise<PassResult> {
    const { host, telemetry, log } = this.ctx;
    let result: PassResult;
    let read: LiveState | null = null;
    try {
      result = await host.run(async () => {
        const state = read = await telemetry.state(0);
        const handshakes = await this.#emitHandshakes(state);
        // Changes committed but not yet applied are not drift, nor link changes underneath.
        const settled = state && host.pending === 0 ? state : null;
        if (settled) this.#links.observe(settled, await this.ctx.interfaceRepo.all());
        const drift = settled ? (await this.reconciler.planFrom(settled)).items : null;
        return { at: isoTime(Date.now()), handshakes, drift, error: null };
      });
    } catch (err) {
      log.warn("Host read failed", { error: err });
      result = {
        at: isoTime(Date.now()),
        handshakes: 0,
        drift: null,
        error: (err as Error).message,
      };
    }
    if (result.drift) this.#report(result.drift);
    this.last = result;
    // Outside host.run: enforcing a limit applies a peer change to the host.
    if (read && this.#onState) {
      await this.#onState(read).catch((err) => log.warn("Peer accounting failed", { error: err }));
    }
    if (result.drift?.length && this.autoReconcile) {
      await this.reconciler.apply("system").catch((err) =>
        log.error("Automatic reconcile failed", { error: err })
      );
    }
    return result;
  }

  #report(items: ReconcileItem[]) {
    this.lastDrift = items;
    const sig = items.map((i) => `${i.kind}|${i.interface}|${i.public_key}|${i.field}`).sort().join(
      "\n",
    );
    if (sig === this.#driftSignature) return;
    this.#driftSignature = sig;
    if (!items.length) {
      this.ctx.log.info("Host back in sync with stored state");
      return;
    }
    const interfaces = [
      ...new Set(items.flatMap((i) => i.interface === null ? [] : [i.interface])),
    ];
    this.ctx.log.warn("Drift detected between stored and live state", {
      items: items.length,
      interfaces,
    });
    this.ctx.events.emit("DriftDetected", { items: items.length, interfaces });
  }

  async #emitHandshakes(state: LiveState | null): Promise<number> {
    if (!state) return 0;
    const seen = new Map<string, number>();
    let emitted = 0;
    for (const iface of state.interfaces.values()) {
      for (const p of iface.peers.values()) {
        seen.set(p.publicKey, p.latestHandshake);
        const prev = this.#handshakes.get(p.publicKey);
        const changed = prev === undefined
          ? this.#baseline && p.latestHandshake > 0
          : prev !== p.latestHandshake;
        if (!changed || p.latestHandshake === 0) continue;
        const row = await this.ctx.peerRepo.byPublicKey(p.publicKey);
        if (!row) continue; // not ours
        this.ctx.events.emit("PeerHandshake", {
          id: row.id,
          interface_id: row.interface_id,
          public_key: p.publicKey,
          latest_handshake: isoTime(p.latestHandshake * 1000),
          endpoint: p.endpoint,
          rx_bytes: p.rxBytes,
          tx_bytes: p.txBytes,
        });
        emitted++;
      }
    }
    this.#handshakes = seen;
    this.#baseline = true;
    return emitted;
  }
}
