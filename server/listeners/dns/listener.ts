/**
 * The DNS sockets: UDP and TCP on one address, handing each message to the
 * responder. TCP follows RFC 7766: two-byte length prefix, several queries per
 * connection answered in order, an idle timeout, and a cap on concurrent
 * connections so a flood of idle sockets cannot starve the process.
 */
import type { Logger } from "../../../lib/log/log.ts";
import { silentLogger } from "../../../lib/log/log.ts";

export interface DnsHandler {
  udp(msg: Uint8Array, ip: string): Uint8Array | null;
  tcp(msg: Uint8Array, ip: string): Uint8Array[];
}

export interface DnsListenerConfig {
  hostname: string;
  port: number;
  /** Close a TCP connection after this long without a complete query (RFC 7766 §6.2.3). */
  tcpIdleMs?: number;
  /** Further TCP connections are closed at once. */
  maxTcpConnections?: number;
  logger?: Logger;
}

export interface DnsListener {
  addr: { hostname: string; port: number };
  close(): Promise<void>;
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
  const idleMs = config.tcpIdleMs ?? 10_000;
  const maxConns = config.maxTcpConnections ?? 128;
  const { udp, tcp, port } = bindPair(config.hostname, config.port);
  const conns = new Set<Deno.Conn>();
  let closed = false;

  const udpLoop = (async () => {
    const buf = new Uint8Array(65535);
    let inflight = 0;
    while (!closed) {
      let data: Uint8Array;
      let addr: Deno.Addr;
      try {
        [data, addr] = await udp.receive(buf);
      } catch (err) {
        if (closed) break;
        log.warn("DNS UDP receive failed", { error: err });
        continue;
      }
      let resp: Uint8Array | null = null;
      try {
        resp = handler.udp(data, (addr as Deno.NetAddr).hostname);
      } catch (err) {
        log.error("DNS UDP handler failed", { error: err });
      }
      if (!resp) continue;
      // Sends are not awaited one by one (that halves throughput); the bound
      // keeps a stalled socket from queueing without limit.
      inflight++;
      const sent = udp.send(resp, addr).catch(() => 0).finally(() => inflight--);
      if (inflight > 256) await sent;
    }
  })();

  const serveConn = async (conn: Deno.Conn) => {
    const ip = (conn.remoteAddr as Deno.NetAddr).hostname;
    // One buffer that grows by doubling (a message is at most 2 + 65535 bytes), so a
    // message trickled in byte by byte costs linear work, not a copy per byte.
    let buf = new Uint8Array(4096);
    let len = 0;
    // The idle deadline moves only when a whole query has arrived: a client
    // dribbling a byte now and then cannot hold its slot forever (RFC 7766 §6.2.3).
    let deadline = Date.now() + idleMs;
    const closeConn = () => {
      try {
        conn.close();
      } catch { /* already closed */ }
    };
    try {
      while (!closed) {
        while (len >= 2) {
          const msgLen = (buf[0] << 8) | buf[1];
          if (len < 2 + msgLen) break;
          const msg = buf.slice(2, 2 + msgLen);
          buf.copyWithin(0, 2 + msgLen, len);
          len -= 2 + msgLen;
          deadline = Date.now() + idleMs;
          let out: Uint8Array[] = [];
          try {
            out = handler.tcp(msg, ip);
          } catch (err) {
            log.error("DNS TCP handler failed", { error: err });
          }
          // A client that stops reading must not hold the slot either.
          const writeTimer = setTimeout(closeConn, idleMs);
          try {
            for (const r of out) await writeAll(conn, frame(r));
          } finally {
            clearTimeout(writeTimer);
          }
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        if (len === buf.length) {
          const bigger = new Uint8Array(Math.min(buf.length * 2, 2 + 65535));
          bigger.set(buf.subarray(0, len));
          buf = bigger;
        }
        const timer = setTimeout(closeConn, remaining);
        let n: number | null;
        try {
          n = await conn.read(buf.subarray(len));
        } finally {
          clearTimeout(timer);
        }
        if (n === null) break;
        len += n;
      }
    } catch {
      // Peer reset, idle close or shutdown: nothing to answer any more.
    } finally {
      conns.delete(conn);
      closeConn();
    }
  };

  const tcpLoop = (async () => {
    while (!closed) {
      let conn: Deno.Conn;
      try {
        conn = await tcp.accept();
      } catch (err) {
        if (closed) break;
        log.warn("DNS TCP accept failed", { error: err });
        continue;
      }
      if (conns.size >= maxConns) {
        conn.close();
        continue;
      }
      conns.add(conn);
      serveConn(conn);
    }
  })();

  return {
    addr: { hostname: config.hostname, port },
    async close() {
      closed = true;
      udp.close();
      tcp.close();
      for (const c of conns) {
        try {
          c.close();
        } catch { /* already closed */ }
      }
      await Promise.allSettled([udpLoop, tcpLoop]);
    },
  };
}

function frame(msg: Uint8Array): Uint8Array {
  const out = new Uint8Array(msg.length + 2);
  out[0] = msg.length >> 8;
  out[1] = msg.length & 255;
  out.set(msg, 2);
  return out;
}

async function writeAll(conn: Deno.Conn, data: Uint8Array): Promise<void> {
  let off = 0;
  while (off < data.length) off += await conn.write(data.subarray(off));
}
