/**
 * The in-process event bus. Services emit typed events after their change has
 * committed; the WebSocket route and the dashboard islands subscribe. Frames
 * on the wire are `{type, payload}` as `specs/tunnels.md` says.
 */

/** One peer in a `PeerUsage` event. */
export interface PeerUsageItem {
  id: string;
  used_bytes: number;
  quota_bytes: number | null;
  days_left: number | null;
}

/** Payloads by event type. Later subsystems add their own entries here. */
export interface EventMap {
  /** Every audit record, as written. */
  AuditEvent: {
    id: string;
    time: string;
    actor: string;
    event_type: string;
    message: string;
    resource_type: string;
    resource_id: string;
  };
  /**
   * An interface was created, updated, deleted, enabled, disabled, restarted,
   * reconciled or had peers imported (`action`); see docs/tunnels.md.
   */
  InterfaceChanged: { id: string; action: string; name: string };
  /** A peer was created, updated, deleted, enabled, disabled or revoked (`action`). */
  PeerChanged: { id: string; action: string; interface_id: string; name: string };
  /**
   * A network was created or deleted (`action`), or `updated`: adopted or
   * freed by an interface, or moved with its interface's block.
   */
  NetworkChanged: { id: string; action: string };
  /**
   * An attestation site was created, updated, deleted or had its secret
   * rotated (`action`: created, updated, deleted, secret_rotated); never the secret.
   */
  SiteChanged: { id: string; action: string };
  /** A DNS TSIG key was created or deleted (`action`); never the secret. */
  TsigKeyChanged: { name: string; action: string };
  /**
   * A route was created or deleted (`action`), sent once the host has it
   * (docs/tunnels.md, "Routes").
   */
  RouteChanged: { id: string; action: string };
  /**
   * A firewall rule was created, deleted, enabled or disabled (`action`), sent
   * once Palisade's nftables table has it (docs/tunnels.md, "Firewall rules").
   */
  FirewallChanged: { id: string; action: string };
  /** A peer's latest handshake time changed (seen by the periodic host read). */
  PeerHandshake: {
    id: string;
    interface_id: string;
    public_key: string;
    latest_handshake: string | null;
    endpoint: string | null;
    rx_bytes: number;
    tx_bytes: number;
  };
  /**
   * Palisade disabled a peer that used up its traffic quota for the period
   * (docs/peer_lifecycle.md); sent after the host dropped it.
   */
  PeerQuotaReached: {
    id: string;
    interface_id: string;
    name: string;
    quota_bytes: number;
    used_bytes: number;
    period_start: string;
  };
  /** Palisade disabled a peer whose expiry passed (docs/peer_lifecycle.md). */
  PeerExpired: { id: string; interface_id: string; name: string; expires_at: string };
  /**
   * Usage of limited peers after an accounting pass (docs/peer_lifecycle.md,
   * "Live usage"): only peers whose figures changed, at most 50 per event.
   */
  PeerUsage: { peers: PeerUsageItem[] };
  /** A setting changed; secret values are never sent. */
  SettingsChanged: { key: string; value: string | null; is_secret: boolean };
  /** Drift between stored and live host state was detected by the periodic pass. */
  DriftDetected: { items: number; interfaces: string[] };
  /**
   * The store was restored from backup `id` (docs/tunnels.md, "Backups"):
   * every listing may have changed; `safety_backup_id` holds the state it replaced.
   */
  BackupRestored: { id: string; safety_backup_id: string; schema_version: number };
  /** A DNS zone or its records changed; `serial` is the new SOA serial. */
  ZoneChanged: { zone: string; action: string; serial: number };
  /**
   * Attestation figures, sent when one changed since the last window
   * (lib/attest/rates.ts): `/stats` counts, heartbeat counters since start,
   * and accepted/rejected per second over the last `window_seconds`.
   */
  AttestStats: {
    time: string;
    sessions: number;
    expired_sessions: number;
    max_chain_length: number;
    accepted: number;
    rejected: number;
    /** Only reasons with at least one rejection. */
    rejected_by_reason: Record<string, number>;
    accepted_per_second: number;
    rejected_per_second: number;
    window_seconds: number;
  };
  /**
   * A site's figures changed (lib/attest/sites/site_history.ts): checked every
   * 5 s, sent only after a change; the sites pages refresh their figures on it.
   */
  AttestSiteStats: { time: string };
}

export type EventType = keyof EventMap;

/** One frame as sent to subscribers. */
export type BusEvent = { [K in EventType]: { type: K; payload: EventMap[K] } }[EventType];

/**
 * A subscriber. `origin` is the id of the instance the event came from when
 * another instance sent it (lib/events/event_relay.ts), `undefined` for an
 * event of this process: a subscriber that acts on a change (rather than
 * showing it) leaves the acting to the instance that made it.
 */
export type Listener = (event: BusEvent, origin?: string) => void;

export class EventBus {
  #listeners = new Set<Listener>();

  /**
   * Sends `payload` to every subscriber; a failing subscriber does not stop
   * the others. `origin` is set by the relay only (another instance's event).
   */
  emit<K extends EventType>(type: K, payload: EventMap[K], origin?: string): void {
    const event = { type, payload } as BusEvent;
    for (const listener of this.#listeners) {
      try {
        listener(event, origin);
      } catch {
        // A broken subscriber (e.g. a closed socket) must not break the emitter.
      }
    }
  }

  /** Registers `listener`; returns the function that removes it. */
  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }
}
