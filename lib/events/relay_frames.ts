/**
 * What the event relay (event_relay.ts) sends to the other instances, and
 * in which form. A frame is JSON `{i, n, t, p}`: the sending instance's id,
 * its sequence number (consecutive per instance, so a receiver notices lost
 * notifications), the event type and its payload. A frame must stay under
 * PostgreSQL's NOTIFY limit: one that does not fit is sent with its long
 * free-text fields cut and `c: 1`, and the receiver reads the full event
 * where it can (docs/scaling.md, "Cross-instance infrastructure").
 */
import type { BusEvent, EventMap, EventType } from "./bus.ts";

export interface Frame {
  /** The sending instance. */
  i: string;
  /** Its sequence number: 1, 2, 3… from its start. */
  n: number;
  t: EventType;
  p: unknown;
  /** Present when free-text fields of `p` were cut to fit. */
  c?: 1;
}

interface RelayRule {
  /** Sent to the other instances. */
  relay: boolean;
  /** Fields of unbounded length that may be cut to fit (every other field is sent whole). */
  free?: readonly string[];
}

/**
 * Every event type, decided: a new type does not compile until it is here.
 * Not relayed: the attestation figures (this process's own counters: each
 * instance shows its own), and `BackupRestored` (a restore exists on SQLite
 * only, where there is one instance).
 */
export const RELAY_RULES: Record<EventType, RelayRule> = {
  AuditEvent: { relay: true, free: ["message"] },
  InterfaceChanged: { relay: true },
  PeerChanged: { relay: true },
  NetworkChanged: { relay: true },
  SiteChanged: { relay: true },
  TsigKeyChanged: { relay: true },
  RouteChanged: { relay: true },
  FirewallChanged: { relay: true },
  PeerHandshake: { relay: true },
  PeerQuotaReached: { relay: true },
  PeerExpired: { relay: true },
  // Only the host driver's instance accounts; every instance's dashboards show the usage.
  PeerUsage: { relay: true },
  SettingsChanged: { relay: true, free: ["value"] },
  DriftDetected: { relay: true, free: ["interfaces"] },
  BackupRestored: { relay: false },
  ZoneChanged: { relay: true },
  AttestStats: { relay: false },
  AttestSiteStats: { relay: false },
};

export function isRelayed(type: string): type is EventType {
  return Object.hasOwn(RELAY_RULES, type) && RELAY_RULES[type as EventType].relay;
}

const encoder = new TextEncoder();

/** Successive lengths a free field is cut to until the frame fits (list items: a sixteenth). */
const CUTS = [1024, 256, 64, 0];

function cut(value: unknown, chars: number): unknown {
  if (typeof value === "string") {
    const points = [...value];
    return points.length > chars ? points.slice(0, chars).join("") + "…" : value;
  }
  if (Array.isArray(value)) return value.slice(0, Math.floor(chars / 16));
  return value;
}

/**
 * The frame of `event` as sent, under `maxBytes` of UTF-8, and whether it
 * was cut; null when it cannot fit even with its free fields emptied (no
 * event type comes near).
 */
export function encodeFrame(
  event: BusEvent,
  instance: string,
  seq: number,
  maxBytes: number,
): { text: string; cut: boolean } | null {
  const frame: Frame = { i: instance, n: seq, t: event.type, p: event.payload };
  const whole = JSON.stringify(frame);
  if (encoder.encode(whole).length <= maxBytes) return { text: whole, cut: false };
  const free = RELAY_RULES[event.type].free ?? [];
  for (const chars of CUTS) {
    const p: Record<string, unknown> = { ...event.payload };
    for (const field of free) p[field] = cut(p[field], chars);
    const text = JSON.stringify({ ...frame, p, c: 1 });
    if (encoder.encode(text).length <= maxBytes) return { text, cut: true };
  }
  return null;
}

/** The frame in `raw`, or null for anything else on the channel. */
export function decodeFrame(raw: string): Frame | null {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof v !== "object" || v === null) return null;
  const f = v as Record<string, unknown>;
  if (typeof f.i !== "string" || typeof f.n !== "number" || typeof f.t !== "string") return null;
  if (typeof f.p !== "object" || f.p === null) return null;
  return f as unknown as Frame;
}

/**
 * Reads the full payload of an event that arrived cut: `null` keeps the cut
 * one. The composition root gives these per type (e.g. the audit record by
 * its id).
 */
export type Resolvers = {
  [K in EventType]?: (cut: EventMap[K]) => Promise<EventMap[K] | null>;
};
