/**
 * Events derived from the bus (docs/webhooks.md, "Events"): a peer is
 * connected while its latest handshake is younger than
 * PALISADE_WEBHOOK_PEER_DISCONNECTED_MS, and a burst of failed sign-ins is
 * PALISADE_WEBHOOK_LOGIN_FAILURES of them within the window. Both count what
 * this process saw: after a restart, peers already connected are announced
 * once as their next handshake arrives.
 */
import type { EventMap } from "../events/bus.ts";

type Handshake = EventMap["PeerHandshake"];

/** Tracks each peer's latest handshake; says when one connects or goes quiet. */
export class PeerConnections {
  #peers = new Map<string, Handshake & { at: number }>();

  constructor(private readonly disconnectedMs: number) {}

  /** A handshake report: the peer when it just became connected. */
  seen(h: Handshake, now: number): Handshake | null {
    const at = h.latest_handshake === null ? NaN : Date.parse(h.latest_handshake);
    if (Number.isNaN(at) || now - at >= this.disconnectedMs) return null;
    const known = this.#peers.has(h.id);
    this.#peers.set(h.id, { ...h, at });
    return known ? null : h;
  }

  /** Peers whose handshake is now too old: each is reported once, then forgotten. */
  sweep(now: number): Handshake[] {
    const gone: Handshake[] = [];
    for (const [id, p] of this.#peers) {
      if (now - p.at >= this.disconnectedMs) {
        this.#peers.delete(id);
        const { at: _at, ...h } = p;
        gone.push(h);
      }
    }
    return gone;
  }
}

/** Counts failed sign-ins in a sliding window; fires at the threshold, then starts over. */
export class LoginFailureCounter {
  #times: number[] = [];
  #actors = new Set<string>();

  constructor(private readonly threshold: number, private readonly windowMs: number) {}

  /** One failure at `now`: the burst's figures when it reaches the threshold. */
  failed(now: number, userId: string): { failures: number; user_ids: string[] } | null {
    this.#times = this.#times.filter((t) => now - t < this.windowMs);
    if (this.#times.length === 0) this.#actors.clear();
    this.#times.push(now);
    // Unknown usernames have no id: they are counted, not named.
    if (userId !== "") this.#actors.add(userId);
    if (this.#times.length < this.threshold) return null;
    const burst = { failures: this.#times.length, user_ids: [...this.#actors].slice(0, 20) };
    this.#times = [];
    this.#actors.clear();
    return burst;
  }
}
