/**
 * A whole Palisade server in the test process: a fresh temporary store, every
 * listener on an OS-chosen loopback port, and a known administrator.
 */
import { manifest } from "../../server/listeners/manifest.ts";
import type { Clock } from "../../lib/clock.ts";
import type { HostDriver } from "../../lib/host/driver.ts";
import { type Config, parseConfig } from "../../lib/config/config.ts";
import { createLogger, type Logger, silentLogger } from "../../lib/log/log.ts";
import { createServices, type Services } from "../../lib/services.ts";
import { ATTEST_STORE_TUNING } from "../../lib/attest/store_tuning.ts";
import { Store } from "../../lib/store/store.ts";
import { sqliteEngine } from "../../lib/store/engine.ts";
import { type RunningServer, startServer } from "../../server/listeners/start.ts";

export const ADMIN = { username: "admin", password: "correct horse battery staple" };

export interface TestServer extends AsyncDisposable {
  services: Services;
  /** The server's SQLite store (tests read and seed rows through it). */
  store: Store;
  server: RunningServer;
  dir: string;
  admin: string;
  attest: string;
  dnsApi: string;
  dns: { hostname: string; port: number };
  /** Logs in on the admin API; returns the `svc_session` cookie pair ("svc_session=..."). */
  login(username?: string, password?: string): Promise<string>;
  /** Creates an API token as the first administrator, over the API; returns the raw token. */
  createToken(name: string, expiresInDays?: number): Promise<string>;
  /** Creates a user directly through the service. */
  addUser(
    username: string,
    role: "administrator" | "operator" | "viewer",
    password?: string,
  ): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  clock?: Clock;
  env?: Record<string, string>;
  log?: Logger;
  /** Adjusts the parsed configuration before services start. */
  configure?: (config: Config) => void;
  /**
   * An existing data directory (a restart over the same store); it is kept
   * when the server closes. A fresh temp dir, removed on close, when absent.
   */
  dataDir?: string;
  /** A host driver of the test's own (e.g. tests/helpers/memory_driver.ts) instead of the configured one. */
  driver?: HostDriver;
}

/** Starts a server; dispose it with `await using`. */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dir = opts.dataDir ?? await Deno.makeTempDir({ prefix: "palisade-test-" });
  const config = parseConfig({
    PALISADE_DATA: dir,
    PALISADE_ADMIN_LISTEN: "127.0.0.1:0",
    PALISADE_ATTEST_LISTEN: "127.0.0.1:0",
    PALISADE_DNS_API_LISTEN: "127.0.0.1:0",
    PALISADE_DNS_LISTEN: "127.0.0.1:0",
    PALISADE_ADMIN_USER: ADMIN.username,
    PALISADE_ADMIN_PASSWORD: ADMIN.password,
    PALISADE_HOST_DRIVER: "none",
    // Verifier threads only where a test asks for them: most tests start many servers.
    PALISADE_ATTEST_WORKERS: "0",
    // Tests make the interfaces they need; the default wg0 has its own tests.
    PALISADE_DEFAULT_INTERFACE: "false",
    ...opts.env,
  });
  opts.configure?.(config);
  const store = Store.open(`${dir}/palisade.db`, { tuning: ATTEST_STORE_TUNING });
  const log = opts.log ??
    (Deno.env.get("PALISADE_TEST_LOG") ? createLogger("debug") : silentLogger);
  const services = await createServices({
    config,
    engine: sqliteEngine(store),
    log,
    clock: opts.clock,
    driver: opts.driver,
  });
  await services.users.ensureFirstAdministrator(config.adminUser, config.adminPassword);
  const server = await startServer(services, manifest);
  await services.start();
  const [dnsHost, dnsPort] = server.addresses.dns.split(":");
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.shutdown();
    await services.stop();
    store.close();
    if (!opts.dataDir) await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const admin = `http://${server.addresses.admin}`;
  const login = async (username = ADMIN.username, password = ADMIN.password) => {
    const res = await fetch(`${admin}/api/v1/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username, password }),
    });
    await res.body?.cancel();
    if (res.status !== 200) throw new Error(`login as "${username}" failed: ${res.status}`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("svc_session="));
    if (!cookie) throw new Error("login set no svc_session cookie");
    return cookie.split(";")[0];
  };
  return {
    services,
    store,
    server,
    dir,
    admin,
    attest: `http://${server.addresses.attest}`,
    dnsApi: `http://${server.addresses.dnsApi}`,
    dns: { hostname: dnsHost, port: Number(dnsPort) },
    login,
    async createToken(name, expiresInDays = 1) {
      const created = await call(`${admin}/api/v1/auth/tokens`, {
        method: "POST",
        headers: { cookie: await login() },
        json: { name, expires_in_days: expiresInDays },
      });
      if (created.status !== 201) {
        throw new Error(`creating token "${name}" failed: ${created.status}`);
      }
      return created.body.raw_token as string;
    },
    async addUser(username, role, password = `${username}-password-123`) {
      await services.users.create({ username, email: "", password, role }, "test");
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** fetch + JSON body, for brevity in tests. */
export async function call(
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  const res = await fetch(url, { ...init, headers, body });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = { _text: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * Opens a WebSocket with extra headers (a Deno extension; the DOM typings the
 * islands need do not know it) and waits until it is open.
 */
export async function openSocket(url: string, headers: Record<string, string>): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers } as unknown as string[]);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`WebSocket ${url} failed to open`));
  });
  return ws;
}
