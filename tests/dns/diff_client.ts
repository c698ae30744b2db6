/**
 * Sends many messages to one DNS server over UDP or TCP with a few workers,
 * one message in flight per worker socket, and collects each reply (or null
 * when none came within the timeout, or the server closed the connection).
 * Over TCP a zone transfer's reply is a stream of messages, read to its end.
 */
import { Buffer } from "node:buffer";
import { dnsPacket } from "../../lib/dns/packet.ts";

/** One message, or a transfer's messages in order; null: no reply. */
export type Reply = Uint8Array[] | null;

export type Transport = "udp" | "tcp";

const HOST = "127.0.0.1";

function timeout(ms: number): { done: Promise<"timeout">; cancel: () => void } {
  let id: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<"timeout">((res) => id = setTimeout(() => res("timeout"), ms));
  return { done, cancel: () => clearTimeout(id) };
}

function idMatches(msg: Uint8Array, reply: Uint8Array): boolean {
  return msg.length < 2 || (reply.length >= 2 && reply[0] === msg[0] && reply[1] === msg[1]);
}

/**
 * A transfer stream is complete after an error, an empty answer, or the
 * closing SOA (the second one); a lone SOA (an IXFR client up to date) is
 * complete too.
 */
function transferDone(msgs: Uint8Array[]): boolean {
  let soas = 0;
  let records = 0;
  for (const m of msgs) {
    let p;
    try {
      p = dnsPacket.decode(Buffer.from(m));
    } catch {
      return true;
    }
    if (p.rcode !== "NOERROR" || p.answers.length === 0) return true;
    records += p.answers.length;
    soas += p.answers.filter((a) => a.type === "SOA").length;
  }
  return soas >= 2 || (records === 1 && soas === 1);
}

class UdpWorker {
  #sock = this.#open();

  #open(): Deno.DatagramConn {
    return Deno.listenDatagram({ hostname: HOST, port: 0, transport: "udp" });
  }

  async exchange(port: number, msg: Uint8Array, ms: number, _stream = false): Promise<Reply> {
    const one = await this.#one(port, msg, ms);
    return one ? [one] : null;
  }

  async #one(port: number, msg: Uint8Array, ms: number): Promise<Uint8Array | null> {
    await this.#sock.send(msg, { transport: "udp", hostname: HOST, port });
    const t = timeout(ms);
    try {
      // Bounded: a reply of another ID is skipped, at most a few times.
      for (let i = 0; i < 4; i++) {
        const got = await Promise.race([this.#sock.receive(), t.done]);
        if (got === "timeout") break;
        if (idMatches(msg, got[0])) return got[0];
      }
    } finally {
      t.cancel();
    }
    // The pending receive would take a late reply meant for this message: start afresh.
    this.close();
    this.#sock = this.#open();
    return null;
  }

  close(): void {
    try {
      this.#sock.close();
    } catch { /* closed */ }
  }
}

class TcpWorker {
  #conn: Deno.TcpConn | null = null;
  #buf = new Uint8Array(0);

  async #read(n: number, deadline: Promise<"timeout">): Promise<Uint8Array | null> {
    while (this.#buf.length < n) {
      const chunk = new Uint8Array(65536);
      const got = await Promise.race([this.#conn!.read(chunk), deadline]);
      if (got === "timeout" || got === null) return null;
      const next = new Uint8Array(this.#buf.length + got);
      next.set(this.#buf);
      next.set(chunk.subarray(0, got), this.#buf.length);
      this.#buf = next;
    }
    const out = this.#buf.slice(0, n);
    this.#buf = this.#buf.slice(n);
    return out;
  }

  async #once(port: number, msg: Uint8Array, ms: number): Promise<Uint8Array | null | "stale"> {
    const fresh = this.#conn === null;
    if (!this.#conn) this.#conn = await Deno.connect({ hostname: HOST, port });
    const framed = new Uint8Array(msg.length + 2);
    framed[0] = msg.length >> 8;
    framed[1] = msg.length & 255;
    framed.set(msg, 2);
    const t = timeout(ms);
    try {
      try {
        await this.#conn.write(framed);
      } catch {
        this.close();
        return fresh ? null : "stale";
      }
      let reply: Uint8Array | null = null;
      try {
        // Bounded: what is left of an earlier reply stream (another ID) is skipped.
        for (let i = 0; i < 64; i++) {
          const len = await this.#read(2, t.done);
          const m = len ? await this.#read((len[0] << 8) | len[1], t.done) : null;
          if (!m || idMatches(msg, m)) {
            reply = m;
            break;
          }
        }
      } catch { /* reset by the server */ }
      if (reply === null) {
        this.close();
        // A kept connection the server had closed before this message: try once more on a new one.
        return fresh ? null : "stale";
      }
      return reply;
    } finally {
      t.cancel();
    }
  }

  async exchange(port: number, msg: Uint8Array, ms: number, stream: boolean): Promise<Reply> {
    let first = await this.#once(port, msg, ms);
    if (first === "stale") first = await this.#once(port, msg, ms);
    if (first === "stale" || first === null) return null;
    const out = [first];
    // Bounded: a transfer of the suite's zones takes a few messages.
    while (stream && out.length < 64 && !transferDone(out)) {
      const t = timeout(ms);
      try {
        const len = await this.#read(2, t.done);
        const next = len ? await this.#read((len[0] << 8) | len[1], t.done) : null;
        if (!next) break;
        out.push(next);
      } catch {
        break;
      } finally {
        t.cancel();
      }
    }
    if (stream) this.close(); // whatever else comes belongs to no later message
    return out;
  }

  close(): void {
    try {
      this.#conn?.close();
    } catch { /* closed */ }
    this.#conn = null;
    this.#buf = new Uint8Array(0);
  }
}

/** The replies to `msgs` (in their order) from the server on `port`; `stream`: a transfer over TCP. */
export async function exchangeAll(
  port: number,
  transport: Transport,
  msgs: Uint8Array[],
  opts: { workers: number; timeoutMs: number; stream?: (i: number) => boolean },
): Promise<Reply[]> {
  const out: Reply[] = new Array(msgs.length).fill(null);
  let next = 0;
  const work = async () => {
    const w = transport === "udp" ? new UdpWorker() : new TcpWorker();
    try {
      while (next < msgs.length) {
        const i = next++;
        out[i] = await w.exchange(port, msgs[i], opts.timeoutMs, opts.stream?.(i) ?? false);
      }
    } finally {
      w.close();
    }
  };
  await Promise.all(Array.from({ length: opts.workers }, work));
  return out;
}
