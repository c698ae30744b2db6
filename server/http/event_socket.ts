/**
 * The event WebSocket: each accepted socket receives every bus event as a
 * `{type, payload}` JSON text frame. A client that falls too far behind is
 * disconnected rather than buffered without bound. Sockets are tracked per
 * service set so a shutdown can close them.
 */
import type { BusEvent, EventBus } from "../../lib/events/bus.ts";
import type { Logger } from "../../lib/log/log.ts";

/** More than this many unsent bytes means the client cannot keep up. */
const MAX_BUFFERED = 4 * 1024 * 1024;

const registries = new WeakMap<object, Set<WebSocket>>();

function registry(owner: object): Set<WebSocket> {
  let set = registries.get(owner);
  if (!set) registries.set(owner, set = new Set());
  return set;
}

/** How often an open socket re-checks the credential it was opened with (expiry). */
export const REVALIDATE_MS = 10_000;

/** Audit events after which every socket re-checks its credential at once. */
const CREDENTIAL_EVENTS = new Set([
  "auth.logout",
  "auth.password_changed",
  "token.revoked",
  "user.role_changed",
]);

/**
 * Upgrades `req` and streams `events` to it until either side closes.
 * `stillValid` re-checks the credential the socket was opened with; when the
 * session ends (logout, password change, expiry) or the token is revoked, the
 * stream closes instead of outliving it.
 */
export function openEventStream(
  req: Request,
  events: EventBus,
  owner: object,
  log: Logger,
  stillValid: () => Promise<boolean>,
  revalidateMs = REVALIDATE_MS,
): Response {
  const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: 60 });
  const sockets = registry(owner);
  let unsubscribe = () => {};
  let check: ReturnType<typeof setInterval> | undefined;
  socket.onopen = () => {
    sockets.add(socket);
    // A credential that cannot be checked (the store failing) does not keep the stream open.
    const fail = (err: unknown) => {
      log.warn("closing an event socket: its credential could not be checked", {
        error: err instanceof Error ? err.message : String(err),
      });
      socket.close(1011, "Credential check failed");
    };
    const revalidate = async () => {
      if (socket.readyState !== WebSocket.OPEN || await stillValid()) return true;
      socket.close(1008, "Credential no longer valid");
      return false;
    };
    check = setInterval(() => void revalidate().catch(fail), revalidateMs);
    // Events go out one after the other, in order, even while one waits for a re-check.
    let sending = Promise.resolve();
    unsubscribe = events.subscribe((event) => {
      sending = sending.then(() => send(event)).catch(fail);
    });
    const send = async (event: BusEvent) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (
        event.type === "AuditEvent" && CREDENTIAL_EVENTS.has(event.payload.event_type) &&
        !(await revalidate())
      ) return;
      if (socket.bufferedAmount > MAX_BUFFERED) {
        log.warn("closing a slow event socket");
        socket.close(1008, "Too slow");
        return;
      }
      socket.send(JSON.stringify(event));
    };
  };
  const cleanup = () => {
    clearInterval(check);
    unsubscribe();
    sockets.delete(socket);
  };
  socket.onclose = cleanup;
  socket.onerror = cleanup;
  // Clients have nothing to say on this channel; ignore what they send.
  socket.onmessage = () => {};
  return response;
}

/** Closes every event socket opened for `owner` (on shutdown). */
export function closeEventStreams(owner: object): void {
  for (const s of registry(owner)) {
    try {
      s.close(1001, "Server shutting down");
    } catch { /* already closed */ }
  }
  registry(owner).clear();
}
