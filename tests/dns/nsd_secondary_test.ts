/**
 * NSD as the oracle: it transfers a zone from Palisade as a secondary and must
 * then answer a fixed query set exactly as Palisade does; a change through the
 * service reaches NSD by NOTIFY within 5 seconds.
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { parseNotifyTargets } from "../../lib/dns/notify.ts";
import { DnsNotifier } from "../../server/listeners/dns/notify.ts";
import { dig } from "./dig.ts";
import { startNsd } from "./nsd.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";
import { waitFor } from "../helpers/wait.ts";

const ZONE = "example.test";
const RECORDS: [string, string, string, number?][] = [
  ["ns1.example.test", "A", "192.0.2.53"],
  ["ns2.example.test", "AAAA", "2001:db8::53"],
  ["www.example.test", "A", "192.0.2.1"],
  ["www.example.test", "A", "192.0.2.2"],
  ["www.example.test", "AAAA", "2001:db8::1"],
  ["alias.example.test", "CNAME", "www.example.test"],
  ["chain.example.test", "CNAME", "alias.example.test"],
  ["away.example.test", "CNAME", "www.example.org"],
  ["dangling.example.test", "CNAME", "missing.example.test"],
  ["example.test", "MX", "10 mail.example.test"],
  ["example.test", "MX", "20 mx.example.org"],
  ["mail.example.test", "A", "192.0.2.25"],
  ["example.test", "TXT", "v=spf1 mx -all"],
  ["long.example.test", "TXT", "k=" + "x".repeat(300)],
  ["example.test", "CAA", '0 issue "letsencrypt.org"'],
  ["_sip._tcp.example.test", "SRV", "10 60 5060 sip.example.test"],
  ["sip.example.test", "A", "192.0.2.60"],
  ["*.wild.example.test", "A", "192.0.2.99"],
  ["*.wild.example.test", "TXT", "wildcard"],
  ["*.cwild.example.test", "CNAME", "www.example.test"],
  ["deep.a.b.example.test", "A", "192.0.2.77"],
  ["sub.example.test", "NS", "ns.sub.example.test"],
  ["sub.example.test", "NS", "ns.example.org"],
  ["ns.sub.example.test", "A", "192.0.2.153"],
  ["1.2.0.192.in-addr.example.test", "PTR", "www.example.test"],
  ["short.example.test", "A", "192.0.2.5", 60],
  // The types of RFC 9460, 7553, 1876, 1035/8482, 1183, 2230, 4398, 7929, 7344/8078, and escaped owners.
  [
    "svc.example.test",
    "HTTPS",
    "1 . alpn=h3,h2 port=443 ipv4hint=192.0.2.1 ech=AEX+DQ== ipv6hint=2001:db8::1 mandatory=alpn",
  ],
  ["svc.example.test", "SVCB", '2 svc.example.org. alpn="h2" no-default-alpn key65000="abc"'],
  ["alias.svc.example.test", "HTTPS", "0 svc.example.org."],
  ["gen.example.test", "TYPE65", "\\# 3 000000"],
  ["loc.example.test", "LOC", "52 22 23.000 N 4 53 32.000 E -2.00m 1m 10000m 10m"],
  ["hinfo.example.test", "HINFO", '"RFC8482" ""'],
  ["rp.example.test", "RP", "mbox.example.org. txt.example.org."],
  ["afsdb.example.test", "AFSDB", "1 afs.example.org."],
  ["kx.example.test", "KX", "10 kx.example.org."],
  ["cert.example.test", "CERT", "PGP 0 0 AAECAwQ="],
  ["pgp.example.test", "OPENPGPKEY", "AAECAwQFBgc="],
  ["example.test", "CDS", "0 0 0 00"],
  ["example.test", "CDNSKEY", "0 3 0 AA=="],
  ["_http._tcp.example.test", "URI", '10 1 "https://www.example.test/"'],
  ["x\\.y.example.test", "A", "192.0.2.46"],
  ["\\200\\001.example.test", "TXT", "escaped owner"],
];

/** [name, type] pairs covering every answer class. */
const QUERIES: [string, string][] = [
  ["example.test", "SOA"],
  ["example.test", "NS"],
  ["example.test", "MX"],
  ["example.test", "TXT"],
  ["example.test", "CAA"],
  ["example.test", "A"],
  ["www.example.test", "A"],
  ["WWW.Example.TEST", "AAAA"],
  ["www.example.test", "MX"],
  ["alias.example.test", "A"],
  ["alias.example.test", "CNAME"],
  ["chain.example.test", "AAAA"],
  ["away.example.test", "A"],
  ["dangling.example.test", "A"],
  ["long.example.test", "TXT"],
  ["_sip._tcp.example.test", "SRV"],
  ["x.wild.example.test", "A"],
  ["y.x.wild.example.test", "TXT"],
  ["x.wild.example.test", "AAAA"],
  ["wild.example.test", "A"],
  ["q.cwild.example.test", "A"],
  ["b.example.test", "A"],
  ["a.b.example.test", "TXT"],
  ["nothere.example.test", "A"],
  ["no.such.name.example.test", "MX"],
  ["sub.example.test", "A"],
  ["host.sub.example.test", "A"],
  ["sub.example.test", "NS"],
  ["sub.example.test", "DS"],
  ["1.2.0.192.in-addr.example.test", "PTR"],
  ["short.example.test", "A"],
  ["ns1.example.test", "A"],
  ["www.example.test", "ANY"],
  ["svc.example.test", "HTTPS"],
  ["svc.example.test", "SVCB"],
  ["alias.svc.example.test", "HTTPS"],
  ["gen.example.test", "HTTPS"],
  ["loc.example.test", "LOC"],
  ["hinfo.example.test", "HINFO"],
  ["rp.example.test", "RP"],
  ["afsdb.example.test", "AFSDB"],
  ["kx.example.test", "KX"],
  ["cert.example.test", "CERT"],
  ["pgp.example.test", "OPENPGPKEY"],
  ["example.test", "CDS"],
  ["example.test", "CDNSKEY"],
  ["_http._tcp.example.test", "URI"],
  ["X\\.y.example.test", "A"],
  ["x\\.y.example.test", "TXT"],
  ["x.y.example.test", "A"],
  ["\\200\\001.example.test", "TXT"],
];

/** Queries of the record types beyond RFC 1035's that must find data (the others are NODATA/NXDOMAIN). */
const ANSWERED = new Set(
  QUERIES.slice(QUERIES.findIndex(([n, t]) => n === "svc.example.test" && t === "HTTPS"))
    .filter(([n, t]) => !(n === "x.y.example.test" || t === "TXT" && n.startsWith("x")))
    .map(([n, t]) => `${n} ${t}`),
);

async function populate(s: DnsStack): Promise<void> {
  await s.service.createZone("test", {
    name: ZONE,
    admin_email: "hostmaster@example.test",
    refresh: 3600,
    retry: 600,
    expire: 604800,
    minimum: 120,
    default_ttl: 600,
    nameservers: ["ns1.example.test", "ns2.example.test"],
  });
  for (const [domain, type, value, ttl] of RECORDS) {
    await s.service.createRecord("test", ZONE, { domain, type, value, ttl });
  }
}

Deno.test("NSD transfers a zone from Palisade and answers the query set exactly as Palisade does", async () => {
  if (!haveSystem("nsd secondary", ["nsd", "dig"])) return;
  await using s = await startDnsStack();
  await populate(s);
  const serial = (await s.service.getZone(ZONE)).serial;
  await using nsd = await startNsd([{ name: ZONE, primary: { ip: "127.0.0.1", port: s.port } }], {
    minimalResponses: false,
  });
  const notifier = new DnsNotifier({
    targets: parseNotifyTargets([`127.0.0.1:${nsd.port}`]),
    timeoutMs: 500,
  });
  const stop = notifier.start(s.bus);
  try {
    const transferred = await waitFor(async () => {
      const r = await dig(nsd.port, [ZONE, "SOA"]);
      return r.answer.some((l) => l.includes(` ${serial} `));
    }, 15_000);
    assert(transferred, `NSD did not transfer serial ${serial}:\n${await nsd.log()}`);

    const diffs: string[] = [];
    for (const [name, type] of QUERIES) {
      for (const extra of [[], ["+noedns"]]) {
        const ours = await dig(s.port, [name, type, ...extra]);
        const theirs = await dig(nsd.port, [name, type, ...extra]);
        // The types added with RFC 9460 and the rest: each answers with data, not only alike.
        if (ANSWERED.has(`${name} ${type}`) && ours.answer.length === 0) {
          diffs.push(`${name} ${type}: Palisade has no answer`);
        }
        // Names compare case-insensitively: NSD's compression pointers reuse
        // the query's case inside data, which changes no meaning.
        const low = (l: string[]) => l.map((x) => x.toLowerCase()).sort();
        for (
          const k of ["status", "flags", "question", "answer", "authority", "additional"] as const
        ) {
          const a = JSON.stringify(
            typeof ours[k] === "string" ? ours[k] : low(ours[k] as string[]),
          );
          const b = JSON.stringify(
            typeof theirs[k] === "string" ? theirs[k] : low(theirs[k] as string[]),
          );
          if (a !== b) {
            diffs.push(`${name} ${type} ${extra.join(" ")} ${k}: Palisade ${a} NSD ${b}`);
          }
        }
      }
    }
    assertEquals(diffs, []);

    // A change through the service reaches NSD by NOTIFY within 5 seconds.
    const www = (await s.service.listRecords(ZONE, "A")).records.find((r) =>
      r.domain === "www.example.test"
    )!;
    const started = Date.now();
    await s.service.updateRecord("test", ZONE, www.id, { value: "192.0.2.200" });
    const seen = await waitFor(async () => {
      const r = await dig(nsd.port, ["www.example.test", "A"]);
      return r.answer.some((l) => l.endsWith("192.0.2.200"));
    }, 5_000);
    assert(seen, `NSD did not serve the change within 5 s:\n${await nsd.log()}`);
    console.log(`NOTIFY → NSD serving new data: ${Date.now() - started} ms`);
  } finally {
    stop();
    await notifier.stop();
  }
});
