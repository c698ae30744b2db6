/**
 * The API-level version of the NSD oracle (nsd_secondary_test.ts works on the
 * service directly): a whole Palisade server, zone and records created over
 * HTTP with a JWT, NSD as a secondary that learns of every change only by
 * Palisade's NOTIFY (PALISADE_DNS_NOTIFY), answers a query set exactly as
 * Palisade does, and serves a change made through the API within 5 seconds.
 */
import { assert, assertEquals } from "../assert.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { freeDualPort } from "../helpers/ports.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "./dig.ts";
import { startNsd } from "./nsd.ts";
import { waitFor } from "../helpers/wait.ts";

const ZONE = "api.test";

const RECORDS: [string, string, string, number?][] = [
  ["ns1.api.test", "A", "192.0.2.53"],
  ["ns2.api.test", "AAAA", "2001:db8::53"],
  ["www.api.test", "A", "192.0.2.1"],
  ["www.api.test", "AAAA", "2001:db8::1"],
  ["alias.api.test", "CNAME", "www.api.test"],
  ["api.test", "MX", "10 mail.api.test"],
  ["mail.api.test", "A", "192.0.2.25"],
  ["api.test", "TXT", "v=spf1 mx -all"],
  ["long.api.test", "TXT", "k=" + "y".repeat(300)],
  ["_sip._udp.api.test", "SRV", "10 60 5060 sip.api.test"],
  ["sip.api.test", "A", "192.0.2.60", 120],
  ["*.wild.api.test", "A", "192.0.2.99"],
  ["sub.api.test", "NS", "ns.sub.api.test"],
  ["ns.sub.api.test", "A", "192.0.2.153"],
];

const QUERIES: [string, string][] = [
  ["api.test", "SOA"],
  ["api.test", "NS"],
  ["api.test", "MX"],
  ["api.test", "TXT"],
  ["www.api.test", "A"],
  ["www.api.test", "AAAA"],
  ["alias.api.test", "A"],
  ["long.api.test", "TXT"],
  ["_sip._udp.api.test", "SRV"],
  ["x.wild.api.test", "A"],
  ["nothere.api.test", "A"],
  ["www.api.test", "MX"],
  ["host.sub.api.test", "A"],
];

Deno.test("NSD secondary transfers a zone built through the DNS API and serves an API change within 5 s of NOTIFY", async () => {
  if (!haveSystem("API NOTIFY → NSD", ["nsd", "dig"])) return;
  // NSD's config names the primary, and Palisade's config names NSD as the
  // NOTIFY target: pick Palisade's DNS port first, then start NSD, then Palisade.
  const dnsPort = freeDualPort();
  await using nsd = await startNsd([{ name: ZONE, primary: { ip: "127.0.0.1", port: dnsPort } }], {
    minimalResponses: false,
  });
  await using t = await startTestServer({
    env: {
      PALISADE_DNS_LISTEN: `127.0.0.1:${dnsPort}`,
      PALISADE_DNS_NOTIFY: `127.0.0.1:${nsd.port}`,
    },
  });
  const api = await dnsApi(t, "otto", "operator");

  const zone = await api.post("/zones", {
    name: ZONE,
    admin_email: "hostmaster@api.test",
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 120,
    default_ttl: 600,
    nameservers: ["ns1.api.test", "ns2.api.test"],
  });
  assertEquals(zone.status, 201, JSON.stringify(zone.body));
  // Half the records one by one, the rest in one batch.
  const half = Math.floor(RECORDS.length / 2);
  for (const [domain, type, value, ttl] of RECORDS.slice(0, half)) {
    const r = await api.post(`/zones/${ZONE}/records`, { domain, type, value, ttl });
    assertEquals(r.status, 201, JSON.stringify(r.body));
  }
  const batch = await api.post(`/zones/${ZONE}/records/batch`, {
    operations: RECORDS.slice(half).map(([domain, type, value, ttl]) => ({
      operation: "create",
      domain,
      type,
      value,
      ttl,
    })),
  });
  assertEquals(batch.status, 200, JSON.stringify(batch.body));
  const serial = (await api.get(`/zones/${ZONE}`)).body.serial as number;

  const transferred = await waitFor(async () => {
    const r = await dig(nsd.port, [ZONE, "SOA"]);
    return r.answer.some((l) => l.includes(` ${serial} `));
  }, 15_000);
  assert(transferred, `NSD did not transfer serial ${serial}:\n${await nsd.log()}`);

  const diffs: string[] = [];
  const low = (l: string[]) => l.map((x) => x.toLowerCase()).sort();
  for (const [name, type] of QUERIES) {
    const ours = await dig(t.dns.port, [name, type]);
    const theirs = await dig(nsd.port, [name, type]);
    for (const k of ["status", "flags", "answer", "authority", "additional"] as const) {
      const a = JSON.stringify(typeof ours[k] === "string" ? ours[k] : low(ours[k] as string[]));
      const b = JSON.stringify(
        typeof theirs[k] === "string" ? theirs[k] : low(theirs[k] as string[]),
      );
      if (a !== b) diffs.push(`${name} ${type} ${k}: Palisade ${a} NSD ${b}`);
    }
  }
  assertEquals(diffs, []);

  // PUT a record over HTTP; NSD must serve it within 5 s (NOTIFY → IXFR/AXFR).
  const www = (await api.get(`/zones/${ZONE}/records?type=A`)).body.records as {
    id: string;
    domain: string;
  }[];
  const id = www.find((r) => r.domain === "www.api.test")!.id;
  let started = Date.now();
  const put = await api.put(`/zones/${ZONE}/records/${id}`, { value: "192.0.2.200" });
  assertEquals(put.status, 200);
  let seen = await waitFor(async () => {
    const r = await dig(nsd.port, ["www.api.test", "A"]);
    return r.answer.some((l) => l.endsWith(" 192.0.2.200"));
  }, 5_000);
  const putMs = Date.now() - started;
  assert(seen, `NSD did not serve the PUT within 5 s:\n${await nsd.log()}`);
  console.log(`PUT /zones/${ZONE}/records/{id} → NSD serving it: ${putMs} ms`);

  // And a new record by POST.
  started = Date.now();
  const post = await api.post(`/zones/${ZONE}/records`, {
    domain: "fresh.api.test",
    type: "TXT",
    value: "hello from the API",
  });
  assertEquals(post.status, 201);
  seen = await waitFor(async () => {
    const r = await dig(nsd.port, ["fresh.api.test", "TXT"]);
    return r.answer.some((l) => l.endsWith('"hello from the API"'));
  }, 5_000);
  const postMs = Date.now() - started;
  assert(seen, `NSD did not serve the POST within 5 s:\n${await nsd.log()}`);
  console.log(`POST /zones/${ZONE}/records → NSD serving it: ${postMs} ms`);
  // Palisade itself answered before the HTTP response came back.
  assertEquals((await dig(t.dns.port, ["fresh.api.test", "TXT"])).answer, [
    'fresh.api.test. 600 IN TXT "hello from the API"',
  ]);
});
