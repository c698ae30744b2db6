/** DNS over UDP: one message in, at most one answer out, per datagram. */
import type { Logger } from "../../../lib/log/log.ts";
import type { DnsHandler, ListenerState } from "./listener.ts";

/** Sends awaited at most this far behind: a stalled socket cannot queue without limit. */
const MAX_INFLIGHT_SENDS = 256;

/** Answers datagrams until the listener closes. */
export async function serveUdp(
  udp: Deno.DatagramConn,
  handler: DnsHandler,
  log: Logger,
  state: ListenerState,
): Promise<void> {
  const buf = new Uint8Array(65535);
  let inflight = 0;
  while (!state.closed) {
    let data: Uint8Array;
    let addr: Deno.Addr;
    try {
      [data, addr] = await udp.receive(buf);
    } catch (err) {
      if (state.closed) break;
      log.warn("DNS UDP receive failed", { error: err });
      continue;
    }
    let resp: Uint8Array | null | Promise<Uint8Array | null> = null;
    try {
      resp = handler.udp(data, (addr as Deno.NetAddr).hostname);
    } catch (err) {
      log.error("DNS UDP handler failed", { error: err });
    }
    if (resp instanceof Promise) {
      // Waits on the store (an update, an IXFR): the loop goes on receiving meanwhile.
      const to = addr;
      resp.then((r) => r && udp.send(r, to).catch(() => 0), (err) => {
        log.error("DNS UDP handler failed", { error: err });
      });
      continue;
    }
    if (!resp) continue;
    // Sends are not awaited one by one: that would leave the socket idle between them.
    inflight++;
    const sent = udp.send(resp, addr).catch(() => 0).finally(() => inflight--);
    if (inflight > MAX_INFLIGHT_SENDS) await sent;
  }
}
