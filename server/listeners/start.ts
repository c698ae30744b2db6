/**
 * Starts every listener of one Palisade process over one set of services:
 * admin HTTP, attestation HTTP, DNS-API HTTP and DNS (UDP+TCP). Returns the
 * bound addresses and a graceful shutdown.
 */
import type { ListenAddress } from "../../lib/config/config.ts";
import type { Services } from "../../lib/services.ts";
import type { Manifest } from "../http/define.ts";
import { type AttestThreads, startAttestThreads } from "./attest/threads.ts";
import { type DnsListener, startDnsListener } from "./dns/listener.ts";
import { DnsNotifier } from "./dns/notify.ts";
import { closeEventStreams } from "../http/event_socket.ts";
import { registerIslands } from "../http/render.ts";
import { buildListenerApp, type RouteEntry } from "../http/router.ts";
import { adminServices } from "./admin/context.ts";
import { buildAttestApp } from "./attest/app.ts";
import { dnsApiServices } from "./dns_api/context.ts";

export interface RunningServer {
  addresses: { admin: string; attest: string; dnsApi: string; dns: string };
  routes: { admin: RouteEntry[]; attest: RouteEntry[]; dnsApi: RouteEntry[] };
  /** The threads serving the attestation listener, when it has its own. */
  attestThreads?: AttestThreads;
  /** The DNS listener (tests stop it to see GET /diagnostics/dns fail). */
  dns: DnsListener;
  /** Stops accepting, lets in-flight requests finish, closes sockets. */
  shutdown(): Promise<void>;
}

export function formatAddr(addr: { hostname: string; port: number }): string {
  return addr.hostname.includes(":")
    ? `[${addr.hostname}]:${addr.port}`
    : `${addr.hostname}:${addr.port}`;
}

function serve(
  listen: ListenAddress,
  fetch: (req: Request, info: Deno.ServeHandlerInfo) => Response | Promise<Response>,
) {
  return Deno.serve({ hostname: listen.hostname, port: listen.port, onListen: () => {} }, fetch);
}

/**
 * Starts all listeners; throws (after closing what started) when one cannot
 * bind. The attestation listener is served by `config.attest.workers`
 * threads of its own, or by this thread when that is 0.
 */
export async function startServer(services: Services, manifest: Manifest): Promise<RunningServer> {
  registerIslands(manifest.islands);
  const { config } = services;
  const adminSlice = adminServices(services);
  const admin = buildListenerApp({
    name: "admin",
    files: manifest.listeners.admin ?? {},
    services: adminSlice,
    htmlPaths: (p) => !p.startsWith("/api/"),
  });
  const attest = buildAttestApp(services);
  const dnsApi = buildListenerApp({
    name: "dns_api",
    files: manifest.listeners.dns_api ?? {},
    services: dnsApiServices(services),
  });

  const started: { shutdown(): Promise<void> }[] = [];
  try {
    const adminServer = serve(config.adminListen, admin.fetch);
    started.push(adminServer);
    let attestAddr: string;
    let attestThreads: AttestThreads | undefined;
    // Threads serve the listener over the SQLite file; on PostgreSQL the main thread does.
    const sqlite = services.engine.kind === "sqlite" ? services.engine.store : null;
    if (config.attest.workers > 0 && sqlite !== null && services.attestSqlite !== null) {
      const threads = await startAttestThreads({
        count: config.attest.workers,
        config,
        dbPath: sqlite.path,
        shared: services.attestSqlite.shared,
        log: services.log,
      });
      started.push(threads);
      attestAddr = formatAddr({ hostname: config.attestListen.hostname, port: threads.port });
      attestThreads = threads;
      const configured = config.attest.workers;
      services.attestThreads.status = () => ({
        configured,
        serving: threads.size,
        replaced: threads.replaced,
      });
    } else {
      const attestServer = serve(config.attestListen, attest.fetch);
      started.push(attestServer);
      attestAddr = formatAddr(attestServer.addr);
    }
    const dnsApiServer = serve(config.dnsApiListen, dnsApi.fetch);
    started.push(dnsApiServer);
    const { dns, dnsAddr } = startDns(services, started);
    const addresses = {
      admin: formatAddr(adminServer.addr),
      attest: attestAddr,
      dnsApi: formatAddr(dnsApiServer.addr),
      dns: dnsAddr,
    };
    services.system.listeners = { ...addresses };
    return {
      addresses,
      routes: { admin: admin.routes, attest: attest.routes, dnsApi: dnsApi.routes },
      attestThreads,
      dns,
      async shutdown() {
        closeEventStreams(adminSlice);
        await Promise.all(started.map((s) => s.shutdown()));
      },
    };
  } catch (err) {
    await Promise.all(started.map((s) => s.shutdown().catch(() => {})));
    throw err;
  }
}

/** The DNS listener and the NOTIFY sender, reporting to `services.dnsRuntime` for diagnostics. */
function startDns(services: Services, started: { shutdown(): Promise<void> }[]) {
  const { config } = services;
  const dns = startDnsListener(
    { ...config.dnsListen, tcp: config.dns.tcp, logger: services.log.child({ listener: "dns" }) },
    services.dnsResponder,
  );
  started.push({ shutdown: () => dns.close() });
  const dnsAddr = formatAddr(dns.addr);
  services.dnsRuntime.listener = () => ({ address: dnsAddr, ...dns.health() });
  services.dnsRuntime.notifyTargets = config.dns.notify.map(formatAddr);
  const notifier = new DnsNotifier({
    targets: config.dns.notify,
    keys: services.dns.tsig.keyring,
    logger: services.log.child({ component: "notify" }),
    onResult: ({ target, zone, serial, ok }) =>
      services.dnsRuntime.recordNotify({
        target: formatAddr(target),
        zone,
        serial,
        ok,
        at: new Date().toISOString(),
      }),
  });
  notifier.start(services.events);
  started.push({ shutdown: () => notifier.stop() });
  return { dns, dnsAddr };
}
