/**
 * The event WebSocket: each accepted socket receives every bus event as a
 * `{type, payload}` JSON text frame. A client that falls too far behind is
 * disconnected rather than buffered without bound. Sockets are tracked per
 * service set so a shutdown can close them.
 */
import type { EventBus } from "../lib/events/bus.ts";
import type { Logger } from "../lib/log/log.ts";

/** More than this many unsent bytes means the client cannot keep up. */
const MAX_BUFFERED = 4 * 1024 * 1024;

const registries = new WeakMap<object, Set<WebSocket>>();

function registry(owner: object): Set<WebSocket> {
  let set = registries.get(owner);
  if (!set) registries.set(owner, set = new Set());
  return set;
}

/** Upgrades `req` and streams `events` to it until either side closes. */
export function openEventStream(
  req: Request,
  events: EventBus,
  owner: object,
  log: Logger,
): Response {
  const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout: 60 });
  const sockets = registry(owner);
  let unsubscribe = () => {};
  socket.onopen = () => {
    sockets.add(socket);
    unsubscribe = events.subscribe((event) => {
      if (socket.readyState !== WebSocket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED) {
        log.warn("closing a slow event socket");
        socket.close(1008, "Too slow");
        return;
      }
      socket.send(JSON.stringify(event));
    });
  };
  const cleanup = () => {
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
