/**
 * The event types a webhook can subscribe to (docs/webhooks.md, "Events"),
 * each from the event bus: some as they are, some derived (a peer's
 * connection from its handshake age, a burst of failed sign-ins from the
 * audit log). The peer quota and expiry events come from the peer
 * lifecycle (docs/peer_lifecycle.md).
 */
export const WEBHOOK_EVENTS = {
  "zone.changed": "A DNS zone or its records changed (ZoneChanged)",
  "dnssec.rollover": "A DNSSEC key rollover started or took a step",
  "peer.changed": "A peer was created, updated, deleted, enabled, disabled or revoked",
  "peer.connected": "A peer's latest handshake became recent",
  "peer.disconnected": "A peer's latest handshake grew older than the disconnect age",
  "peer.quota_reached": "A peer used up its traffic quota for the period and was disabled",
  "peer.expired": "A peer's expiry passed and it was disabled",
  "auth.login_failures": "Failed sign-ins reached the threshold within the window",
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;

/** Sent by "send test" only; no subscription needs to list it. */
export const TEST_EVENT = "webhook.test";

export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

/** One delivery's body: `{id, type, time, data}`. */
export interface WebhookEvent {
  /** The same on every attempt: receivers drop repeats by it. */
  id: string;
  type: WebhookEventType | typeof TEST_EVENT;
  /** ISO 8601. */
  time: string;
  data: Record<string, unknown>;
}
