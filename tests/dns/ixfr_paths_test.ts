/**
 * Every way the service changes a zone writes the IXFR journal: for each
 * mutation path, the IXFR step from the serial before applied to the AXFR
 * before gives the AXFR after (the AXFR comes from the answer index, not from
 * the journal). The list of paths is checked against the service's methods,
 * so a new method must be placed here. Zones created start with an empty
 * journal, deleted ones leave none behind, and a signed zone keeps none: its
 * IXFR is a full transfer.
 */
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "../assert.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { dnsPacket } from "../../lib/dns/packet.ts";
import { DnsService } from "../../lib/dns/dns_service.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";

const Z = "paths.test";

function query(type: "AXFR" | "IXFR", serial = 0): Uint8Array {
  const soa = {
    name: Z,
    type: "SOA",
    data: { mname: "a.", rname: "b.", serial, refresh: 1, retry: 1, expire: 1, minimum: 1 },
  };
  return new Uint8Array(dnsPacket.encode({
    type: "query",
    id: 9,
    questions: [{ name: Z, type, class: "IN" }],
    authorities: type === "IXFR" ? [soa] : [],
  }));
}

interface RR {
  key: string;
  text: string;
  soa: boolean;
}

/** The records of a transfer over TCP, in order. */
async function transfer(s: DnsStack, msg: Uint8Array): Promise<RR[]> {
  return (await s.responder.tcp(msg, "127.0.0.1")).flatMap((m) =>
    dnsPacket.decode(Buffer.from(m)).answers!.map((rr) => {
      const a = rr as { name: string; type: string; ttl: number; data: unknown };
      const key = `${a.name.toLowerCase()} ${a.type} ${JSON.stringify(a.data)}`;
      return { key, text: `${key} ttl=${a.ttl}`, soa: a.type === "SOA" };
    })
  );
}

const axfr = async (s: DnsStack) =>
  (await transfer(s, query("AXFR"))).slice(0, -1).map((r) => r.text).sort();

/** Applies an incremental transfer (RFC 1995 §4) to the records of a full one. */
function apply(before: string[], ixfr: RR[]): string[] {
  const zone = [...before];
  let mode: "del" | "add" = "add";
  for (const rr of ixfr.slice(1, -1)) {
    if (rr.soa) mode = mode === "add" ? "del" : "add";
    if (mode === "add") zone.push(rr.text);
    else {
      const i = zone.findIndex((t) => t.startsWith(`${rr.key} ttl=`));
      assert(i >= 0, `deleted record not in the zone: ${rr.text}`);
      zone.splice(i, 1);
    }
  }
  return zone.sort();
}

type Path = (svc: DnsService, s: DnsStack) => Promise<void> | void;

const FILE = `$ORIGIN ${Z}.\n@ 600 IN MX 5 mx\nmx 300 IN A 192.0.2.9\nwww 600 IN A 192.0.2.1\n`;
const REPLACE = `$ORIGIN ${Z}.\n@ 600 IN SOA ns1 hostmaster 1 3600 600 604800 120\n` +
  `@ 600 IN NS ns1\nns1 600 IN A 192.0.2.53\nonly 60 IN TXT "replaced"\n`;

const idOf = async (svc: DnsService, value: string) =>
  (await svc.listRecords(Z)).records.find((r) => r.value === value)!.id;

/** Each path the service changes a zone's records or SOA by, with a change to make. */
const PATHS: Record<string, Path> = {
  createRecord: async (svc) => {
    await svc.createRecord("t", Z, { domain: `www.${Z}`, type: "A", value: "192.0.2.2", ttl: 900 });
  },
  "updateRecord (value)": async (svc) => {
    await svc.updateRecord("t", Z, await idOf(svc, "192.0.2.2"), { value: "192.0.2.3" });
  },
  "updateRecord (TTL only)": async (svc) => {
    await svc.updateRecord("t", Z, await idOf(svc, "192.0.2.1"), { ttl: 60 });
  },
  deleteRecord: async (svc) => void await svc.deleteRecord("t", Z, await idOf(svc, "192.0.2.3")),
  batch: async (svc) => {
    await svc.batch("t", Z, [
      { operation: "create", domain: `b.${Z}`, type: "TXT", value: "one" },
      { operation: "create", domain: `b.${Z}`, type: "TXT", value: "two" },
      { operation: "update", id: await idOf(svc, "192.0.2.1"), ttl: 600 },
    ]);
  },
  // Puts back the batch's RRsets (docs/dns.md, "History and revert").
  revertChange: async (svc) => {
    const [last] = (await svc.listHistory(Z, { limit: 1 })).changes;
    await svc.revertChange("t", Z, last.id);
  },
  "importZone (merge)": async (svc) => void await svc.importZone("t", Z, FILE),
  "updateZone (SOA fields)": async (svc) => {
    await svc.updateZone("t", Z, { admin_email: `dns@${Z}`, refresh: 7200, minimum: 60 });
  },
  "updateZone (default_ttl)": async (svc) =>
    void await svc.updateZone("t", Z, { default_ttl: 1800 }),
  "updateZone (nameservers)": async (svc) => {
    await svc.updateZone("t", Z, { nameservers: [`ns1.${Z}`, "ns.example.net"] });
  },
  "importZone (replace)": async (svc) =>
    void await svc.importZone("t", Z, REPLACE, { replace: true }),
};

/** Methods that change no zone data, or that start or end its journal (tested below). */
const READ_ONLY = [
  "listZones",
  "getZone",
  "listRecords",
  "listRecordPage",
  "listZonePage",
  "getRecord",
  "exportZone",
  "dnssecStatus",
  "listHistory",
  "getHistoryChange",
];
const JOURNAL_EDGES = ["createZone", "deleteZone", "setDnssec", "rotateDnssec"];

async function create(s: DnsStack) {
  await s.service.createZone("t", {
    name: Z,
    admin_email: `hostmaster@${Z}`,
    nameservers: [`ns1.${Z}`, `ns2.${Z}`],
  });
  await s.service.createRecord("t", Z, { domain: `www.${Z}`, type: "A", value: "192.0.2.1" });
}

const count = (s: DnsStack, table: string) =>
  rawRow<{ n: number }>(s.store, table, ["COUNT(*) AS n"], { zone: Z })!.n;

Deno.test("every service method is a journaled mutation path, a journal edge, or read-only", () => {
  const methods = Object.getOwnPropertyNames(DnsService.prototype).filter((m) =>
    m !== "constructor"
  );
  const paths = new Set(Object.keys(PATHS).map((p) => p.split(" ")[0]));
  assertEquals(
    methods.sort(),
    [...paths, ...READ_ONLY, ...JOURNAL_EDGES].sort(),
  );
});

Deno.test("each mutation path journals a step that turns the AXFR before into the AXFR after", async () => {
  await using s = await startDnsStack();
  await create(s);
  // The first change after creation is journaled too: a new zone starts with an empty journal.
  const created = (await s.service.getZone(Z)).serial - 1;
  assert((await transfer(s, query("IXFR", created)))[1].soa, "the first change is incremental");
  for (const [name, path] of Object.entries(PATHS)) {
    const serial = (await s.service.getZone(Z)).serial;
    const before = await axfr(s);
    await path(s.service, s);
    const after = await axfr(s);
    const ixfr = await transfer(s, query("IXFR", serial));
    assert(ixfr[1]?.soa && ixfr[1].key.includes(`"serial":${serial},`), `${name}: not incremental`);
    assertEquals(apply(before, ixfr), after, name);
    assertEquals(count(s, "dns_journal_pending"), 0, `${name}: pending changes left`);
  }
});

Deno.test("a deleted zone leaves no journal; a new zone of that name starts empty", async () => {
  await using s = await startDnsStack();
  await create(s);
  await s.service.createRecord("t", Z, { domain: `a.${Z}`, type: "A", value: "192.0.2.1" });
  await s.service.createRecord("t", Z, { domain: `b.${Z}`, type: "A", value: "192.0.2.2" });
  assert(count(s, "dns_journal") > 0);
  await s.service.deleteZone("t", Z);
  assertEquals([count(s, "dns_journal"), count(s, "dns_journal_pending")], [0, 0]);
  await s.service.importZone("t", Z, REPLACE);
  assertEquals([count(s, "dns_journal"), count(s, "dns_journal_pending")], [0, 0]);
});

Deno.test("a signed zone keeps no journal and answers IXFR with a full transfer; unsigned again, it journals", async () => {
  await using s = await startDnsStack();
  await create(s);
  await s.service.createRecord("t", Z, { domain: `a.${Z}`, type: "A", value: "192.0.2.1" });
  const unsigned = (await s.service.getZone(Z)).serial;
  await s.service.setDnssec("t", Z, { enable: true });
  await s.service.createRecord("t", Z, { domain: `b.${Z}`, type: "A", value: "192.0.2.2" });
  assertEquals(count(s, "dns_journal"), 0);
  const signedSerial = (await s.service.getZone(Z)).serial;
  await s.service.createRecord("t", Z, { domain: `c.${Z}`, type: "A", value: "192.0.2.3" });
  for (const from of [unsigned, signedSerial]) {
    const full = await transfer(s, query("IXFR", from));
    assert(!full[1].soa, "a full transfer");
    assert(full.some((r) => r.key.includes(" RRSIG ")), "signed");
  }
  await s.service.setDnssec("t", Z, { enable: false });
  const off = (await s.service.getZone(Z)).serial;
  const before = await axfr(s);
  await s.service.createRecord("t", Z, { domain: `d.${Z}`, type: "A", value: "192.0.2.4" });
  const ixfr = await transfer(s, query("IXFR", off));
  assert(ixfr[1].soa, "incremental again");
  assertEquals(apply(before, ixfr), await axfr(s));
});
