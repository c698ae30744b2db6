/**
 * Knot DNS as a secondary of Palisade: it bootstraps the zone with AXFR,
 * then follows changes announced by NOTIFY with incremental transfers (its
 * log says "IXFR, incoming" and never "AXFR-style IXFR"), and serves the
 * changed data.
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { waitFor } from "../helpers/wait.ts";
import { parseNotifyTargets } from "../../lib/dns/notify.ts";
import { DnsNotifier } from "../../server/listeners/dns/notify.ts";
import { dig } from "./dig.ts";
import { startKnot } from "./knot.ts";
import { startDnsStack } from "./stack.ts";

const Z = "follow.test";

Deno.test("Knot as a secondary follows changes by IXFR", async () => {
  if (!haveSystem("ixfr knot secondary", ["knotd", "dig"])) return;
  await using s = await startDnsStack();
  await s.service.createZone("t", { name: Z, admin_email: `hostmaster@${Z}` });
  const www = await s.service.createRecord("t", Z, {
    domain: `www.${Z}`,
    type: "A",
    value: "192.0.2.1",
  });
  await s.service.createRecord("t", Z, {
    domain: `gone.${Z}`,
    type: "TXT",
    value: "to be deleted",
  });
  await using knot = await startKnot([{ name: Z, primary: { ip: "127.0.0.1", port: s.port } }]);
  const serialAt = async () => {
    const r = await dig(knot.port, [Z, "SOA"]);
    return Number(r.answer[0]?.split(" ")[6] ?? NaN);
  };
  const first = (await s.service.getZone(Z)).serial;
  assert(await waitFor(async () => await serialAt() === first, 15_000), knot.log());
  assert(/AXFR, incoming.*finished/.test(knot.log()), knot.log());

  const notifier = new DnsNotifier({
    targets: parseNotifyTargets([`127.0.0.1:${knot.port}`]),
    timeoutMs: 500,
  });
  const stop = notifier.start(s.bus);
  try {
    for (let round = 0; round < 2; round++) {
      const value = `192.0.2.${10 + round}`;
      await s.service.updateRecord("t", Z, www.id, { value });
      if (round === 0) {
        const gone = (await s.service.listRecords(Z, "TXT")).records[0];
        await s.service.deleteRecord("t", Z, gone.id);
      }
      await s.service.createRecord("t", Z, { domain: `r${round}.${Z}`, type: "A", value });
      const serial = (await s.service.getZone(Z)).serial;
      assert(await waitFor(async () => await serialAt() === serial, 15_000), knot.log());
      assertEquals((await dig(knot.port, [`www.${Z}`, "A"])).answer, [
        `www.${Z}. 3600 IN A ${value}`,
      ]);
      assertEquals((await dig(knot.port, [`r${round}.${Z}`, "A"])).answer, [
        `r${round}.${Z}. 3600 IN A ${value}`,
      ]);
    }
    assertEquals((await dig(knot.port, [`gone.${Z}`, "TXT"])).status, "NXDOMAIN");
  } finally {
    stop();
    await notifier.stop();
  }
  const log = knot.log();
  assertEquals(log.match(/IXFR, incoming, remote [^,]+, finished/g)?.length, 2, log);
  assert(!log.includes("AXFR-style"), log);
});
