/**
 * The bus subscriber of the webhooks: turns bus events (and the derived ones
 * of derived.ts) into deliveries to every enabled subscription of the type.
 * The bus emits after commit, so no delivery starts inside a transaction. An
 * event another instance relayed (`origin` set) is left to that instance:
 * each event is delivered once across a PostgreSQL cluster.
 */
import { type Clock, isoTime } from "../clock.ts";
import type { WebhookSettings } from "../config/webhook_options.ts";
import type { BusEvent, EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import type { WebhookDeliverer } from "./delivery.ts";
import { LoginFailureCounter, PeerConnections } from "./derived.ts";
import type { WebhookEventType } from "./event_types.ts";
import type { WebhookRepo } from "./webhook_repo.ts";

type Emit = (type: WebhookEventType, data: Record<string, unknown>) => void;

export interface WebhookEventDeps {
  bus: EventBus;
  repo: WebhookRepo;
  deliverer: WebhookDeliverer;
  settings: WebhookSettings;
  clock: Clock;
  log: Logger;
}

const handshakeData = (h: Record<string, unknown>) => ({
  id: h.id,
  interface_id: h.interface_id,
  public_key: h.public_key,
  latest_handshake: h.latest_handshake,
  endpoint: h.endpoint,
});

/** Starts listening; returns the function that stops (the sweep timer included). */
export function startWebhookEvents(d: WebhookEventDeps): () => void {
  const peers = new PeerConnections(d.settings.peerDisconnectedMs);
  const logins = new LoginFailureCounter(
    d.settings.loginFailureThreshold,
    d.settings.loginFailureWindowMs,
  );
  const emit: Emit = (type, data) => {
    dispatch(d, type, data).catch((err) => d.log.warn("webhook dispatch failed", { err, type }));
  };
  const unsubscribe = d.bus.subscribe((event, origin) => {
    if (origin !== undefined) return;
    translate(event, emit, peers, logins, d);
  });
  const sweep = setInterval(() => {
    for (const h of peers.sweep(d.clock.now())) emit("peer.disconnected", handshakeData(h));
  }, Math.min(30_000, Math.max(1000, Math.floor(d.settings.peerDisconnectedMs / 4))));
  Deno.unrefTimer(sweep);
  return () => {
    unsubscribe();
    clearInterval(sweep);
  };
}

function translate(
  event: BusEvent,
  emit: Emit,
  peers: PeerConnections,
  logins: LoginFailureCounter,
  d: WebhookEventDeps,
): void {
  switch (event.type) {
    case "ZoneChanged": {
      const { zone, action, serial } = event.payload;
      emit("zone.changed", { zone, action, serial });
      if (action.startsWith("dnssec_key_") || action === "dnssec_rotated") {
        emit("dnssec.rollover", { zone, action, serial });
      }
      return;
    }
    case "PeerChanged":
      emit("peer.changed", { ...event.payload });
      return;
    case "PeerQuotaReached":
      emit("peer.quota_reached", { ...event.payload });
      return;
    case "PeerExpired":
      emit("peer.expired", { ...event.payload });
      return;
    case "PeerHandshake": {
      const up = peers.seen(event.payload, d.clock.now());
      if (up) emit("peer.connected", handshakeData(up));
      return;
    }
    case "AuditEvent": {
      if (event.payload.event_type !== "auth.login_failed") return;
      const burst = logins.failed(d.clock.now(), event.payload.resource_id);
      if (burst) {
        emit("auth.login_failures", {
          ...burst,
          threshold: d.settings.loginFailureThreshold,
          window_seconds: Math.round(d.settings.loginFailureWindowMs / 1000),
        });
      }
      return;
    }
  }
}

/** Sends one event to each enabled subscription of its type. */
async function dispatch(
  d: WebhookEventDeps,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const hooks = (await d.repo.list()).filter((h) => h.enabled && h.events.includes(type));
  if (hooks.length === 0) return;
  const event = { id: crypto.randomUUID(), type, time: isoTime(d.clock.now()), data };
  for (const hook of hooks) {
    d.deliverer.deliver(hook, event).catch((err) =>
      d.log.warn("webhook delivery failed", { err, webhook: hook.id })
    );
  }
}
