/**
 * Dynamic updates from Knot's knsupdate (a second client implementation):
 * additions and deletions with prerequisites, a failed prerequisite
 * changing nothing; and NSD as a TSIG secondary following an update by the
 * signed NOTIFY the update's commit sends.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { waitFor } from "../helpers/wait.ts";
import { parseNotifyTargets } from "../../lib/dns/notify.ts";
import { DnsNotifier } from "../../server/listeners/dns/notify.ts";
import { dig } from "./dig.ts";
import { startNsd } from "./nsd.ts";
import { startDnsStack } from "./stack.ts";
import { nsupdate, zoneRecords } from "./update_tools.ts";

Deno.test("knsupdate -y adds and deletes with prerequisites; a failed one changes nothing", async () => {
  if (!haveSystem("knsupdate", ["knsupdate"])) return;
  const Z = "knot-upd.test";
  await using s = await startDnsStack();
  await s.service.createZone("test", { name: Z, admin_email: "h@knot-upd.test" });
  const key = await s.tsig.create("test", {
    name: "knot-key",
    algorithm: "hmac-sha512",
    permissions: ["update"],
  });
  const k = { ...key, algorithm: "hmac-sha512" };
  const add = await nsupdate(s, k, [
    `zone ${Z}.`,
    `prereq nxdomain host.${Z}.`,
    `update add host.${Z}. 120 AAAA 2001:db8::1`,
    `update add host.${Z}. 120 TXT "v=1"`,
  ], { tool: "knsupdate" });
  assert(add.ok, add.out);
  assertEquals(await zoneRecords(s, Z), [
    `host.${Z} AAAA 2001:db8::1 120`,
    `host.${Z} TXT "v=1" 120`,
  ]);
  const serial = (await s.service.getZone(Z)).serial;
  const failed = await nsupdate(s, k, [
    `zone ${Z}.`,
    `prereq nxrrset host.${Z}. AAAA`,
    `update delete host.${Z}. TXT`,
  ], { tool: "knsupdate" });
  assert(!failed.ok, failed.out);
  assertMatch(failed.out, /YXRRSET/);
  assertEquals((await s.service.getZone(Z)).serial, serial);
  const del = await nsupdate(s, k, [
    `zone ${Z}.`,
    `prereq yxrrset host.${Z}. AAAA`,
    `update delete host.${Z}. TXT`,
  ], { tool: "knsupdate", tcp: true });
  assert(del.ok, del.out);
  assertEquals(await zoneRecords(s, Z), [`host.${Z} AAAA 2001:db8::1 120`]);
});

Deno.test("NSD as a TSIG secondary follows an nsupdate through the signed NOTIFY", async () => {
  if (!haveSystem("update nsd", ["nsd", "nsupdate", "dig"])) return;
  const Z = "upd-nsd.test";
  await using s = await startDnsStack({ axfrAllow: ["192.0.2.99"] });
  await s.service.createZone("test", { name: Z, admin_email: "h@upd-nsd.test", refresh: 3600 });
  const xfr = await s.tsig.create("test", { name: "nsd-xfr", zones: [Z] });
  const upd = await s.tsig.create("test", { name: "upd", permissions: ["update"], zones: [Z] });
  await using nsd = await startNsd([{
    name: Z,
    primary: { ip: "127.0.0.1", port: s.port },
    key: { name: xfr.name, algorithm: "hmac-sha256", secret: xfr.secret },
  }]);
  const notifier = new DnsNotifier({
    targets: parseNotifyTargets([`127.0.0.1:${nsd.port}@${xfr.name}`]),
    keys: s.tsig.keyring,
    timeoutMs: 500,
  });
  const stop = notifier.start(s.bus);
  try {
    const first = (await s.service.getZone(Z)).serial;
    const transferred = await waitFor(async () => {
      const r = await dig(nsd.port, [Z, "SOA"]);
      return r.answer.some((l) => l.includes(` ${first} `));
    }, 15_000);
    assert(transferred, `NSD did not transfer serial ${first}:\n${await nsd.log()}`);
    const r = await nsupdate(s, upd, [`zone ${Z}`, `update add dyn.${Z} 60 A 192.0.2.77`]);
    assert(r.ok, r.out);
    const seen = await waitFor(async () => {
      const a = await dig(nsd.port, [`dyn.${Z}`, "A"]);
      return a.answer.some((l) => l.endsWith("192.0.2.77"));
    }, 8_000);
    assert(seen, `NSD did not follow the update:\n${await nsd.log()}`);
  } finally {
    stop();
    await notifier.stop();
  }
});
