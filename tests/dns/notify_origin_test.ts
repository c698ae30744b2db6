/**
 * With several instances on one database (docs/scaling.md) a zone change
 * reaches every instance's bus, the others' through the event relay with an
 * `origin`. Only the instance that made the change sends NOTIFY to the
 * secondaries: a secondary (here a bare UDP socket) gets one NOTIFY per
 * change, not one per instance.
 */
import { assertEquals } from "../assert.ts";
import { EventBus } from "../../lib/events/bus.ts";
import { DnsNotifier } from "../../server/listeners/dns/notify.ts";

Deno.test("the NOTIFY sender announces local zone changes and ignores those relayed from another instance", async () => {
  const secondary = Deno.listenDatagram({ transport: "udp", hostname: "127.0.0.1", port: 0 });
  const port = (secondary.addr as Deno.NetAddr).port;
  const got: Uint8Array[] = [];
  const reading = (async () => {
    try {
      for await (const [msg] of secondary) got.push(msg);
    } catch { /* closed */ }
  })();
  const bus = new EventBus();
  const notifier = new DnsNotifier({
    targets: [{ hostname: "127.0.0.1", port }],
    attempts: 1,
    timeoutMs: 200,
  });
  const stop = notifier.start(bus);
  try {
    const change = { zone: "relay.test", action: "updated", serial: 7 } as const;
    bus.emit("ZoneChanged", change, "instance-b");
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(got.length, 0, "a relayed change sends nothing");
    bus.emit("ZoneChanged", change);
    await stop();
    assertEquals(got.length, 1, "a local change sends one NOTIFY");
    // Opcode NOTIFY (4) in the header's second byte.
    assertEquals((got[0][2] >> 3) & 0xf, 4);
  } finally {
    secondary.close();
    await reading;
  }
});
