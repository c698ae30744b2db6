/**
 * The DNS listener: UDP and TCP on one address (udp.ts, tcp.ts), each
 * message handed to the responder.
 */
import type { Logger } from "../../../lib/log/log.ts";
import { silentLogger } from "../../../lib/log/log.ts";
import type { DnsTcpLimits } from "../../../lib/config/types.ts";
import { serveTcp } from "./tcp.ts";
import { TcpClients } from "./tcp_clients.ts";
import { serveUdp } from "./udp.ts";

/**
 * Answers at once, except the few that wait on the store (a dynamic update,
 * an IXFR reading the journal), which come as a promise.
 */
export interface DnsHandler {
  udp(msg: Uint8Array, ip: string): Uint8Array | null | Promise<Uint8Array | null>;
  tcp(msg: Uint8Array, ip: string): Uint8Array[] | Promise<Uint8Array[]>;
}

export interface DnsListenerConfig {
  hostname: string;
  port: number;
  /** TCP limits (docs/security.md); the defaults of the configuration when absent. */
  tcp?: Partial<DnsTcpLimits>;
  logger?: Logger;
}

const TCP_DEFAULTS: DnsTcpLimits = {
  maxConnections: 128,
  perAddress: 8,
  firstQueryMs: 2000,
  idleMs: 10_000,
};

export interface DnsListener {
  addr: { hostname: string; port: number };
  /** Whether the UDP and TCP loops still run (GET /diagnostics/dns). */
  health(): { udp: boolean; tcp: boolean };
  /** Stops both loops; a second call does nothing. */
  close(): Promise<void>;
}

/** Whether the listener is closing; its loops read it between messages. */
export interface ListenerState {
  closed: boolean;
}

/**
 * Binds UDP and TCP on one port. When the OS picks the port (0), the UDP
 * port it chose may be taken for TCP by another socket: try a few more.
 */
function bindPair(
  hostname: string,
  wanted: number,
): { udp: Deno.DatagramConn; tcp: Deno.Listener; port: number } {
  for (let attempt = 1;; attempt++) {
    const udp = Deno.listenDatagram({ hostname, port: wanted, transport: "udp" });
    const port = (udp.addr as Deno.NetAddr).port;
    try {
      return { udp, tcp: Deno.listen({ hostname, port }), port };
    } catch (err) {
      udp.close();
      if (wanted !== 0 || attempt >= 10 || !(err instanceof Deno.errors.AddrInUse)) throw err;
    }
  }
}

/** Starts UDP and TCP listeners answering with `handler`. */
export function startDnsListener(config: DnsListenerConfig, handler: DnsHandler): DnsListener {
  const log = config.logger ?? silentLogger;
  const { udp, tcp, port } = bindPair(config.hostname, config.port);
  const state: ListenerState = { closed: false };
  const limits = { ...TCP_DEFAULTS, ...config.tcp };
  const clients = new TcpClients(limits);
  const up = { udp: true, tcp: true };
  const udpLoop = serveUdp(udp, handler, log, state).finally(() => up.udp = false);
  const tcpLoop = serveTcp(tcp, handler, { ...limits, log }, state, clients).finally(() =>
    up.tcp = false
  );
  return {
    addr: { hostname: config.hostname, port },
    health: () => ({ ...up }),
    async close() {
      if (state.closed) return;
      state.closed = true;
      udp.close();
      tcp.close();
      clients.closeAll();
      await Promise.allSettled([udpLoop, tcpLoop]);
    },
  };
}
