/**
 * A small client of the DNS management API for tests: logs in for a JWT and
 * sends JSON with it, so tests read as the HTTP calls they make.
 */
import { ADMIN, call, openSocket, type TestServer } from "./test_server.ts";

export type Reply = Awaited<ReturnType<typeof call>>;

export interface DnsApi {
  token: string;
  get(path: string): Promise<Reply>;
  post(path: string, json?: unknown): Promise<Reply>;
  put(path: string, json: unknown): Promise<Reply>;
  del(path: string): Promise<Reply>;
  /** Any request with the JWT added; `path` is below /api/v1. */
  raw(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Logs in on the DNS-API listener as `username` (created with `role` when it
 * is not the administrator) and returns a client for `/api/v1/…` paths.
 */
export async function dnsApi(
  t: TestServer,
  username = ADMIN.username,
  role?: "viewer" | "operator" | "administrator",
): Promise<DnsApi> {
  let password = ADMIN.password;
  if (username !== ADMIN.username) {
    password = `${username}-password-123`;
    await t.addUser(username, role ?? "operator", password);
  }
  const login = await call(`${t.dnsApi}/api/v1/auth/login`, {
    method: "POST",
    json: { username, password },
  });
  if (login.status !== 200) throw new Error(`DNS API login as "${username}": ${login.status}`);
  const token = login.body.token as string;
  const headers = { Authorization: `Bearer ${token}` };
  const base = `${t.dnsApi}/api/v1`;
  return {
    token,
    get: (path) => call(`${base}${path}`, { headers }),
    post: (path, json) => call(`${base}${path}`, { method: "POST", headers, json: json ?? {} }),
    put: (path, json) => call(`${base}${path}`, { method: "PUT", headers, json }),
    del: (path) => call(`${base}${path}`, { method: "DELETE", headers }),
    raw: (path, init = {}) => {
      const h = new Headers(init.headers);
      h.set("Authorization", headers.Authorization);
      return fetch(`${base}${path}`, { ...init, headers: h });
    },
  };
}

const cookies = new WeakMap<TestServer, string>();

/** The administrator's admin-listener cookie, logged in once per server (scrypt is slow). */
async function adminCookie(t: TestServer): Promise<string> {
  let c = cookies.get(t);
  if (!c) cookies.set(t, c = await t.login());
  return c;
}

export interface Frame {
  type: string;
  payload: Record<string, unknown>;
}

export interface EventWatch extends AsyncDisposable {
  frames: Frame[];
  /** Resolves with the first frame (already seen or arriving) that matches, or throws after `ms`. */
  waitFor(match: (f: Frame) => boolean, ms?: number): Promise<Frame>;
}

/**
 * Watches the admin listener's event WebSocket (where every bus event goes
 * out), signed in as the administrator.
 */
export async function watchEvents(t: TestServer): Promise<EventWatch> {
  const cookie = await adminCookie(t);
  const ws = await openSocket(`${t.admin.replace("http", "ws")}/api/v1/ws`, { cookie });
  const frames: Frame[] = [];
  const waiters = new Set<() => void>();
  ws.addEventListener("message", (e) => {
    frames.push(JSON.parse(String(e.data)));
    for (const w of waiters) w();
  });
  return {
    frames,
    waitFor(match, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = frames.find(match);
          if (!hit) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${ms} ms; saw ${JSON.stringify(frames)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    async [Symbol.asyncDispose]() {
      const closed = new Promise((r) => ws.addEventListener("close", r));
      ws.close();
      await closed;
    },
  };
}

export interface AuditRow {
  actor: string;
  event_type: string;
  message: string;
  resource_type: string;
  resource_id: string;
}

/** Audit records from the admin API (`GET /api/v1/audit`), oldest first. */
export async function auditRows(
  t: TestServer,
  query: Record<string, string> = {},
): Promise<AuditRow[]> {
  const cookie = await adminCookie(t);
  const qs = new URLSearchParams({ limit: "500", ...query });
  const res = await call(`${t.admin}/api/v1/audit?${qs}`, { headers: { cookie } });
  if (res.status !== 200) throw new Error(`GET /api/v1/audit: ${res.status}`);
  return (res.body.records as AuditRow[]).reverse();
}
