/**
 * The one WebSocket client every island shares: connects to `/api/v1/ws`
 * with the session cookie, dispatches `{type, payload}` frames to
 * subscribers, and reconnects with exponential backoff and jitter.
 */
import { signal } from "@preact/signals";

export type StreamStatus = "connecting" | "live" | "offline";

export interface StreamEvent {
  type: string;
  payload: Record<string, unknown>;
}

type Listener = (event: StreamEvent) => void;

/** Connection state, for a "live" indicator. */
export const streamStatus = signal<StreamStatus>("connecting");

const listeners = new Map<string, Set<Listener>>();
let socket: WebSocket | null = null;
let attempt = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Set when the page is being left: a reconnect then would only fail (e.g. right after logout). */
let leaving = false;

function url(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/api/v1/ws`;
}

function connect(): void {
  clearTimeout(timer);
  if (leaving) return;
  streamStatus.value = "connecting";
  const ws = new WebSocket(url());
  socket = ws;
  ws.onopen = () => {
    attempt = 0;
    streamStatus.value = "live";
  };
  ws.onmessage = (msg) => {
    let event: StreamEvent;
    try {
      event = JSON.parse(String(msg.data));
    } catch {
      return;
    }
    for (const key of [event.type, "*"]) listeners.get(key)?.forEach((fn) => fn(event));
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    if (leaving) return;
    streamStatus.value = "offline";
    // 0.5 s, 1 s, 2 s … capped at 30 s, with jitter so tabs do not reconnect in lockstep.
    const delay = Math.min(30_000, 500 * 2 ** attempt++) * (0.5 + Math.random() / 2);
    timer = setTimeout(connect, delay);
  };
}

addEventListener("pagehide", () => {
  leaving = true;
  clearTimeout(timer);
  socket?.close(1000, "Page left");
});
addEventListener("pageshow", (e) => {
  // Back/forward cache: the page is shown again, so is the stream.
  if ((e as PageTransitionEvent).persisted && leaving) {
    leaving = false;
    if (listeners.size > 0) connect();
  }
});

/** Calls `fn` for every event of `type` ("*" for all); returns the unsubscribe function. */
export function subscribe(type: string, fn: Listener): () => void {
  let set = listeners.get(type);
  if (!set) listeners.set(type, set = new Set());
  set.add(fn);
  if (!socket) connect();
  return () => set!.delete(fn);
}
