/**
 * dnspython as a second, independent IXFR client: it transfers the zone
 * (AXFR), the zone then changes through every kind of change the service
 * makes (records created, changed, TTL-only changed, deleted; a batch; a zone
 * file merged and one replacing the records; SOA fields, default TTL and
 * nameservers), and dnspython applies Palisade's IXFR to its old copy. The
 * result must equal a fresh AXFR, and the answer must have been incremental
 * (its second record the client's old SOA), not a full transfer.
 */
import { assertEquals } from "../assert.ts";
import { run } from "../helpers/system.ts";
import { dnspython } from "./dnssec_py.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const Z = "oracle.test";

const SCRIPT = `
import json, sys
import dns.message, dns.query, dns.rdatatype, dns.xfr, dns.zone
mode, port, origin, path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
if mode == "axfr":
    z = dns.zone.Zone(origin)
    dns.query.inbound_xfr("127.0.0.1", z, port=port)
    open(path, "w").write(z.to_text())
    print(json.dumps({"serial": z.get_soa().serial}))
    sys.exit(0)
old = dns.zone.from_text(open(path).read(), origin, relativize=True)
serial = old.get_soa().serial
# The raw answer first: incremental when its second record is the client's SOA (RFC 1995 §4).
q = dns.message.make_query(origin, dns.rdatatype.IXFR)
rrs = []
for m in dns.query.xfr("127.0.0.1", origin, rdtype=dns.rdatatype.IXFR, serial=serial, port=port,
                       relativize=False):
    for rrset in m.answer:
        for rd in rrset:
            rrs.append((rrset.rdtype, rd))
incremental = len(rrs) > 2 and rrs[1][0] == dns.rdatatype.SOA and rrs[1][1].serial == serial
query, _ = dns.xfr.make_query(old, serial=serial)
dns.query.inbound_xfr("127.0.0.1", old, query, port=port)
fresh = dns.zone.Zone(origin)
dns.query.inbound_xfr("127.0.0.1", fresh, port=port)
a, b = old.to_text().splitlines(), fresh.to_text().splitlines()
print(json.dumps({
    "incremental": incremental,
    "records": len(rrs),
    "equal": old == fresh,
    "only_applied": sorted(set(a) - set(b)),
    "only_fresh": sorted(set(b) - set(a)),
    "serial": old.get_soa().serial,
}))
`;

async function py(bin: string, s: DnsStack, mode: string, path: string) {
  const r = await run(bin, ["-c", SCRIPT, mode, String(s.port), `${Z}.`, path]);
  return JSON.parse(r.stdout);
}

const FILE = `$ORIGIN ${Z}.
@ 600 IN MX 20 mx2
mx2 600 IN A 192.0.2.21
`;

const REPLACEMENT = `$ORIGIN ${Z}.
@ 900 IN SOA ns1 hostmaster 1 3600 600 604800 120
@ 900 IN NS ns1
@ 900 IN NS ns2
www 300 IN A 192.0.2.80
www 300 IN AAAA 2001:db8::80
only 60 IN TXT "after replace"
`;

/** Every kind of change, each its own serial step; `replace` also replaces the records from a file. */
async function change(s: DnsStack, replace: boolean): Promise<void> {
  const svc = s.service;
  const add = async (domain: string, type: string, value: string, ttl?: number) =>
    (await svc.createRecord("test", Z, { domain, type, value, ttl })).id;
  const a2 = await add(`www.${Z}`, "A", "192.0.2.2", 900);
  const id = (await svc.listRecords(Z, "A")).records.find((r) => r.value === "192.0.2.1")!.id;
  await svc.updateRecord("test", Z, id, { ttl: 120 });
  await svc.updateRecord("test", Z, a2, { value: "192.0.2.3" });
  const gone = await add(`tmp.${Z}`, "TXT", "short-lived");
  await svc.deleteRecord("test", Z, gone);
  await svc.batch("test", Z, [
    { operation: "create", domain: `b1.${Z}`, type: "A", value: "192.0.2.31" },
    { operation: "create", domain: `b1.${Z}`, type: "AAAA", value: "2001:db8::31" },
    { operation: "delete", id: a2 },
  ]);
  await svc.importZone("test", Z, FILE);
  await svc.updateZone("test", Z, { admin_email: `dns@${Z}`, refresh: 7200, default_ttl: 1200 });
  await svc.updateZone("test", Z, { nameservers: [`ns1.${Z}`, "ns.example.net"] });
  if (replace) await svc.importZone("test", Z, REPLACEMENT, { replace: true });
}

async function populate(s: DnsStack): Promise<void> {
  await s.service.createZone("test", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    default_ttl: 600,
    nameservers: [`ns1.${Z}`, `ns2.${Z}`],
  });
  for (
    const [domain, type, value] of [
      [`www.${Z}`, "A", "192.0.2.1"],
      [`www.${Z}`, "AAAA", "2001:db8::1"],
      [Z, "MX", "10 mail.oracle.test"],
      [`mail.${Z}`, "A", "192.0.2.25"],
      [`tmp.${Z}`, "TXT", "kept"],
    ]
  ) await s.service.createRecord("test", Z, { domain, type, value });
}

for (const replace of [false, true]) {
  Deno.test(`dnspython applies Palisade's IXFR and gets the zone's AXFR${replace ? " (records replaced from a file)" : ""}`, async () => {
    const bin = await dnspython("ixfr dnspython");
    if (!bin) return;
    await using s = await startDnsStack();
    await populate(s);
    const path = `${s.dir}/old.zone`;
    const before = await py(bin, s, "axfr", path);
    assertEquals(before.serial, (await s.service.getZone(Z)).serial);
    await change(s, replace);
    const r = await py(bin, s, "ixfr", path);
    assertEquals({ only_applied: r.only_applied, only_fresh: r.only_fresh }, {
      only_applied: [],
      only_fresh: [],
    });
    assertEquals(r.equal, true);
    assertEquals(r.incremental, true);
    assertEquals(r.serial, (await s.service.getZone(Z)).serial);
  });
}
