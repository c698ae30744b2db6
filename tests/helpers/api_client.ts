/**
 * A small JSON client for API tests: one credential (cookie or bearer token)
 * and a base URL, returning status and parsed body. Event frames from
 * `/api/v1/ws` are collected by `collectFrames`.
 */
import { call, openSocket } from "./test_server.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

export interface ApiResponse {
  status: number;
  body: Json;
  headers: Headers;
}

export interface ApiClient {
  get(path: string): Promise<ApiResponse>;
  post(path: string, json?: unknown): Promise<ApiResponse>;
  put(path: string, json: unknown): Promise<ApiResponse>;
  del(path: string): Promise<ApiResponse>;
  /** The raw response, for non-JSON downloads. */
  fetch(path: string): Promise<Response>;
  headers: Record<string, string>;
}

/** A client of the admin API at `base` (e.g. http://127.0.0.1:1234) sending `headers` on each call. */
export function apiClient(base: string, headers: Record<string, string>): ApiClient {
  const url = (path: string) => `${base}/api/v1${path}`;
  return {
    headers,
    get: (path) => call(url(path), { headers }),
    post: (path, json) => call(url(path), { method: "POST", headers, json: json ?? {} }),
    put: (path, json) => call(url(path), { method: "PUT", headers, json }),
    del: (path) => call(url(path), { method: "DELETE", headers }),
    fetch: (path) => fetch(url(path), { headers }),
  };
}

export interface Frame {
  type: string;
  payload: Json;
}

export interface FrameLog extends AsyncDisposable {
  frames: Frame[];
  /** Resolves with the first frame (already received or future) matching `pred`. */
  waitFor(pred: (f: Frame) => boolean, timeoutMs?: number, what?: string): Promise<Frame>;
  close(): void;
}

/** Opens /api/v1/ws with `headers` and records every frame. */
export async function collectFrames(
  base: string,
  headers: Record<string, string>,
): Promise<FrameLog> {
  const ws = await openSocket(`${base.replace("http", "ws")}/api/v1/ws`, headers);
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.addEventListener("message", (e) => {
    frames.push(JSON.parse(String(e.data)));
    for (const w of waiters) w();
  });
  const close = () => {
    try {
      ws.close();
    } catch { /* closed */ }
  };
  return {
    frames,
    waitFor(pred, timeoutMs = 10_000, what = "a matching frame") {
      const hit = frames.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const check = () => {
          const f = frames.find(pred);
          if (!f) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(f);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${what} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    close,
    [Symbol.asyncDispose]: async () => {
      if (ws.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((r) => ws.addEventListener("close", r, { once: true }));
      close();
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([closed, new Promise((r) => timer = setTimeout(r, 2000))]);
      clearTimeout(timer);
    },
  };
}
