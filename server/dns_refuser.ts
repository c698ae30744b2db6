/**
 * Placeholder DNS listener until the authoritative server lands: UDP and TCP
 * on the configured address, answering every well-formed query REFUSED and
 * malformed ones FORMERR.
 */
import { Buffer } from "node:buffer";
import dnsPacket from "dns-packet";
import type { ListenAddress } from "../lib/config/config.ts";

function answer(query: Uint8Array): Uint8Array | null {
  if (query.length < 12) return null;
  let rcode = 5; // REFUSED
  let questions: dnsPacket.Question[] = [];
  try {
    questions = dnsPacket.decode(Buffer.from(query)).questions ?? [];
  } catch {
    rcode = 1; // FORMERR
  }
  const id = (query[0] << 8) | query[1];
  const rd = (query[2] & 1) === 1;
  // dns-packet takes the response code in the low bits of `flags`.
  const flags = (rd ? dnsPacket.RECURSION_DESIRED : 0) | rcode;
  return new Uint8Array(dnsPacket.encode({ id, type: "response", flags, questions }));
}

export interface DnsListener {
  addr: string;
  close(): void;
}

/** Starts the placeholder on UDP and TCP at the same address. */
export function startDnsRefuser(listen: ListenAddress): DnsListener {
  const udp = Deno.listenDatagram({
    hostname: listen.hostname,
    port: listen.port,
    transport: "udp",
  });
  const port = (udp.addr as Deno.NetAddr).port;
  const tcp = Deno.listen({ hostname: listen.hostname, port });
  (async () => {
    try {
      for await (const [msg, from] of udp) {
        const res = answer(msg);
        if (res) await udp.send(res, from).catch(() => {});
      }
    } catch { /* closed */ }
  })();
  (async () => {
    try {
      for await (const conn of tcp) {
        (async () => {
          try {
            const head = new Uint8Array(2);
            while ((await conn.read(head)) === 2) {
              const len = (head[0] << 8) | head[1];
              const buf = new Uint8Array(len);
              let got = 0;
              while (got < len) {
                const n = await conn.read(buf.subarray(got));
                if (n === null) return;
                got += n;
              }
              const res = answer(buf);
              if (!res) return;
              const out = new Uint8Array(res.length + 2);
              out[0] = res.length >> 8;
              out[1] = res.length & 0xff;
              out.set(res, 2);
              await conn.write(out);
            }
          } catch {
            /* connection reset */
          } finally {
            try {
              conn.close();
            } catch { /* already closed */ }
          }
        })();
      }
    } catch { /* closed */ }
  })();
  const host = listen.hostname.includes(":") ? `[${listen.hostname}]` : listen.hostname;
  return {
    addr: `${host}:${port}`,
    close() {
      udp.close();
      tcp.close();
    },
  };
}
