/**
 * A zone for the denial and chain tests, made through the DNS service into a
 * real SQLite store and read back as the answer index reads it (buildZone):
 * apex data, a name with a child, a wildcard under an empty non-terminal,
 * deeper empty non-terminals, an insecure and a secure delegation with glue,
 * a DNAME, a CNAME, a service name and an owner with escaped bytes.
 */
import { sqliteDnsRepos } from "../../lib/dns/dns_repos.ts";
import { buildZone, type ZoneData } from "../../lib/dns/zone_index.ts";
import { dnsTestService } from "../helpers/dns_service.ts";
import { tempStore } from "../helpers/temp_store.ts";

export const Z = "example.test";

const RECORDS: [string, string, string][] = [
  ["@", "MX", "10 mail.example.test."],
  ["@", "TXT", "v=spf1 -all"],
  ["ns1", "A", "192.0.2.53"],
  ["www", "A", "192.0.2.1"],
  ["www", "AAAA", "2001:db8::1"],
  ["x.www", "A", "192.0.2.2"],
  ["mail", "A", "192.0.2.25"],
  ["*.wild", "TXT", "wild"],
  ["a.b.c", "A", "192.0.2.3"],
  ["sub", "NS", "ns.sub.example.test."],
  ["ns.sub", "A", "192.0.2.54"],
  // Data at the cut besides NS is the child's (occluded): not in the parent's NSEC bitmap.
  ["sub", "A", "192.0.2.55"],
  ["secure", "NS", "ns.provider.net."],
  ["secure", "DS", "12345 13 2 " + "ab".repeat(32)],
  ["dn", "DNAME", "other.test."],
  ["alias", "CNAME", "www.example.test."],
  ["_sip._tcp", "SRV", "0 5 5060 www.example.test."],
  ["m\\255", "TXT", "escaped"],
];

/** The zone's data as the answer index holds it. */
export async function dnssecTestZone(): Promise<ZoneData> {
  await using t = await tempStore();
  const { service } = dnsTestService(t.store);
  await service.createZone("test", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    minimum: 300,
    default_ttl: 3600,
  });
  for (const [name, type, value] of RECORDS) {
    const domain = name === "@" ? Z : `${name}.${Z}`;
    await service.createRecord("test", Z, { domain, type, value });
  }
  return (await buildZone(sqliteDnsRepos(t.store), Z))!;
}

/** Names that exist with authoritative data or a delegation: no white lie may cover one. */
export const OWNERS = [
  Z,
  "ns1",
  "www",
  "x.www",
  "mail",
  "*.wild",
  "a.b.c",
  "sub",
  "secure",
  "dn",
  "alias",
  "_sip._tcp",
  "m\\255",
].map((n) => (n === Z ? Z : `${n}.${Z}`));

/** Empty non-terminals: covered only by an NSEC whose next name lies below them. */
export const ENTS = ["wild", "b.c", "c", "_tcp"].map((n) => `${n}.${Z}`);
