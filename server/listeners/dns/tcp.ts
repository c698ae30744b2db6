/**
 * DNS over TCP (RFC 7766): two-byte length prefix, several queries per
 * connection answered in order. One client cannot starve the others, as in
 * NSD and Knot: it holds at most `perAddress` connections, a connection that
 * has not sent a complete query within `firstQueryMs` is closed, an idle one
 * after `idleMs`, and at the global cap a new connection closes the
 * longest-idle one instead of being refused.
 */
import type { DnsTcpLimits } from "../../../lib/config/types.ts";
import type { Logger } from "../../../lib/log/log.ts";
import type { DnsHandler, ListenerState } from "./listener.ts";
import { type TcpClient, TcpClients } from "./tcp_clients.ts";

export interface TcpOptions extends DnsTcpLimits {
  log: Logger;
}

/** The largest framed message: the length prefix and 65,535 bytes. */
const MAX_FRAME = 2 + 65535;

/** Accepts connections until the listener closes; `clients` holds the open ones. */
export async function serveTcp(
  tcp: Deno.Listener,
  handler: DnsHandler,
  opts: TcpOptions,
  state: ListenerState,
  clients: TcpClients,
): Promise<void> {
  while (!state.closed) {
    let conn: Deno.Conn;
    try {
      conn = await tcp.accept();
    } catch (err) {
      if (state.closed) break;
      opts.log.warn("DNS TCP accept failed", { error: err });
      continue;
    }
    const client = clients.admit(conn);
    if (!client) continue;
    serveConnection(client, handler, opts, state).finally(() => clients.release(client));
  }
}

/** Answers the queries of one connection, in order, until it closes or idles out. */
async function serveConnection(
  client: TcpClient,
  handler: DnsHandler,
  opts: TcpOptions,
  state: ListenerState,
): Promise<void> {
  const { conn } = client;
  // One buffer that grows by doubling, so that a message trickled in byte by
  // byte costs linear work, not a copy per byte.
  let buf = new Uint8Array(4096);
  let len = 0;
  // The deadline moves only when a whole query has arrived: a client
  // dribbling a byte now and then cannot hold its slot (RFC 7766 §6.2.3).
  let deadline = Date.now() + opts.firstQueryMs;
  try {
    while (!state.closed) {
      for (let msg = takeMessage(); msg; msg = takeMessage()) {
        client.busy = true;
        await answer(client, handler, msg, opts);
        client.busy = false;
        client.idleSince = Date.now();
        deadline = client.idleSince + opts.idleMs;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      if (len === buf.length) {
        const bigger = new Uint8Array(Math.min(buf.length * 2, MAX_FRAME));
        bigger.set(buf.subarray(0, len));
        buf = bigger;
      }
      const timer = setTimeout(() => client.close(), remaining);
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
    // Peer reset, idle close, eviction or shutdown: nothing to answer any more.
  } finally {
    client.close();
  }

  /** The next complete message in the buffer, removed from it; null when none is complete. */
  function takeMessage(): Uint8Array | null {
    if (len < 2) return null;
    const msgLen = (buf[0] << 8) | buf[1];
    if (len < 2 + msgLen) return null;
    const msg = buf.slice(2, 2 + msgLen);
    buf.copyWithin(0, 2 + msgLen, len);
    len -= 2 + msgLen;
    return msg;
  }
}

/** Writes the answers to one query; a client that stops reading loses its connection. */
async function answer(
  client: TcpClient,
  handler: DnsHandler,
  msg: Uint8Array,
  opts: TcpOptions,
): Promise<void> {
  let out: Uint8Array[] = [];
  try {
    out = await handler.tcp(msg, client.address);
  } catch (err) {
    opts.log.error("DNS TCP handler failed", { error: err });
  }
  const writeTimer = setTimeout(() => client.close(), opts.idleMs);
  try {
    for (const r of out) await writeAll(client.conn, frame(r));
  } finally {
    clearTimeout(writeTimer);
  }
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
