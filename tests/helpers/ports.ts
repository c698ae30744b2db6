import { waitFor } from "./wait.ts";
/** A TCP port that was free a moment ago on 127.0.0.1 (the OS picks it). */
export function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

/** A port free for both TCP and UDP on 127.0.0.1, for DNS listeners. */
export function freeDualPort(): number {
  for (let i = 0; i < 50; i++) {
    const port = freePort();
    try {
      const u = Deno.listenDatagram({ hostname: "127.0.0.1", port, transport: "udp" });
      u.close();
      return port;
    } catch { /* taken for UDP; try another */ }
  }
  throw new Error("No free TCP+UDP port found");
}

/** Whether a server on 127.0.0.1:`port` accepts a TCP connection within `ms` (how the test daemons say they are ready). */
export function acceptsTcp(port: number, ms = 10_000): Promise<boolean> {
  return waitFor(async () => {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return true;
    } catch {
      return false;
    }
  }, ms);
}
