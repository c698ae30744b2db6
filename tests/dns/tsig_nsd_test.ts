/**
 * NSD as a TSIG secondary (RFC 8945): configured with a key from the key
 * service and no address in Palisade's AXFR ACL, it transfers the zone with
 * the key, and a change through the service reaches it by a NOTIFY signed
 * with the same key (NSD's allow-notify names the key, so it drops an
 * unsigned one), whose signed reply Palisade verifies.
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { waitFor } from "../helpers/wait.ts";
import { parseNotifyTargets } from "../../lib/dns/notify.ts";
import { DnsNotifier } from "../../server/listeners/dns/notify.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { freeDualPort } from "../helpers/ports.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "./dig.ts";
import { startNsd } from "./nsd.ts";
import { startDnsStack } from "./stack.ts";

const Z = "signed-xfr.test";

for (const algorithm of ["hmac-sha256", "hmac-sha1"] as const) {
  Deno.test(`NSD with a ${algorithm} key transfers the zone and follows a signed NOTIFY`, async () => {
    if (!haveSystem("tsig nsd", ["nsd", "dig"])) return;
    await using s = await startDnsStack({ axfrAllow: ["192.0.2.99"] });
    // Retry and refresh an hour away: only NOTIFY makes NSD look again within the test.
    await s.service.createZone("test", {
      name: Z,
      admin_email: "h@signed-xfr.test",
      refresh: 3600,
    });
    await s.service.createRecord("test", Z, { domain: `www.${Z}`, type: "A", value: "192.0.2.1" });
    const key = await s.tsig.create("test", { name: `nsd-${algorithm}`, algorithm, zones: [Z] });
    await using nsd = await startNsd([{
      name: Z,
      primary: { ip: "127.0.0.1", port: s.port },
      key: { name: key.name, algorithm, secret: key.secret },
    }]);
    const outcomes: boolean[] = [];
    const notifier = new DnsNotifier({
      targets: parseNotifyTargets([`127.0.0.1:${nsd.port}@${key.name}`]),
      keys: s.tsig.keyring,
      timeoutMs: 500,
      onResult: (r) => outcomes.push(r.ok),
    });
    const stop = notifier.start(s.bus);
    try {
      const serial = (await s.service.getZone(Z)).serial;
      const transferred = await waitFor(async () => {
        const r = await dig(nsd.port, [Z, "SOA"]);
        return r.answer.some((l) => l.includes(` ${serial} `));
      }, 15_000);
      assert(transferred, `NSD did not transfer serial ${serial}:\n${await nsd.log()}`);
      assertEquals((await dig(nsd.port, [`www.${Z}`, "A"])).answer.length, 1);

      const www = (await s.service.listRecords(Z, "A")).records.find((r) =>
        r.domain === `www.${Z}`
      )!;
      await s.service.updateRecord("test", Z, www.id, { value: "192.0.2.200" });
      const seen = await waitFor(async () => {
        const r = await dig(nsd.port, [`www.${Z}`, "A"]);
        return r.answer.some((l) => l.endsWith("192.0.2.200"));
      }, 8_000);
      assert(seen, `NSD did not follow the signed NOTIFY:\n${await nsd.log()}`);
      await waitFor(() => outcomes.length > 0, 5_000);
      assertEquals(outcomes.at(-1), true, "the NOTIFY reply carried a valid signature");
    } finally {
      stop();
      await notifier.stop();
    }
  });
}

Deno.test("NOTIFY to a target whose key does not exist is not sent unsigned", async () => {
  await using s = await startDnsStack();
  const outcomes: boolean[] = [];
  const notifier = new DnsNotifier({
    targets: parseNotifyTargets(["127.0.0.1:9@missing-key"]),
    keys: s.tsig.keyring,
    timeoutMs: 100,
    attempts: 1,
    onResult: (r) => outcomes.push(r.ok),
  });
  notifier.notify("example.test", 1);
  await notifier.stop();
  assertEquals(outcomes, [false]);
});

Deno.test("through a whole server: a key imported over the API, PALISADE_DNS_NOTIFY ip:port@key, NSD follows an API change", async () => {
  if (!haveSystem("tsig nsd api", ["nsd", "dig"])) return;
  const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  const dnsPort = freeDualPort();
  await using nsd = await startNsd([{
    name: "api-signed.test",
    primary: { ip: "127.0.0.1", port: dnsPort },
    key: { name: "nsd-key", algorithm: "hmac-sha256", secret },
  }]);
  await using t = await startTestServer({
    env: {
      PALISADE_DNS_LISTEN: `127.0.0.1:${dnsPort}`,
      PALISADE_DNS_AXFR_ALLOW: "192.0.2.99",
      PALISADE_DNS_NOTIFY: `127.0.0.1:${nsd.port}@nsd-key`,
    },
  });
  const api = await dnsApi(t);
  const key = await api.post("/tsig-keys", { name: "nsd-key", secret, zones: ["api-signed.test"] });
  assertEquals(key.status, 201);
  const zone = { name: "api-signed.test", admin_email: "h@api-signed.test", refresh: 3600 };
  assertEquals((await api.post("/zones", zone)).status, 201);
  const add = await api.post("/zones/api-signed.test/records", {
    domain: "www.api-signed.test",
    type: "A",
    value: "192.0.2.7",
  });
  assertEquals(add.status, 201);
  const seen = await waitFor(async () => {
    const r = await dig(nsd.port, ["www.api-signed.test", "A"]);
    return r.answer.some((l) => l.endsWith("192.0.2.7"));
  }, 8_000);
  assert(seen, `NSD did not follow the API change:\n${await nsd.log()}`);
});
