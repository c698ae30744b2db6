/**
 * The PowerDNS-compatible API against PowerDNS itself (Debian pdns-server
 * 4.7 with the gsqlite3 backend, tests/dns/pdns.ts): the same requests go to
 * both, and their statuses and JSON bodies must match; then dig asks both DNS
 * listeners the same questions and their answers must match.
 *
 * Normalized before comparing (and nothing else; docs/dns.md lists the same):
 * - `serial` and `edited_serial`: each server counts its own (both bump on
 *   every API change, PowerDNS by SOA-EDIT-API DEFAULT);
 * - the SOA content's MNAME and serial: PowerDNS writes
 *   `a.misconfigured.dns.server.invalid.`, Palisade the first nameserver;
 * - the server's `version`;
 * - the order of RRsets (by name, type), of records in an RRset (by content)
 *   and of export lines;
 * - error texts: an error compares as its status and `{"error": …}` shape;
 *   where PowerDNS 4.7 answers plain text (401, 404, 409) only the status,
 *   and Palisade's body is checked to be `{"error": …}` on its own.
 * Documented differences, asserted as such: `disabled: true` (PowerDNS
 * stores a disabled record, Palisade has none: 501) and the SOA (PowerDNS
 * lets the API replace or delete it, Palisade makes it from the zone's
 * fields: 501).
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "./dig.ts";
import { startPdns } from "./pdns.ts";
import {
  type Answer,
  answerOf,
  comparable,
  normalizeBody,
  normalizeExport,
  soaShape,
} from "./pdns_normalize.ts";

const KEY = "differential-key-0123456789";
const Z = "/api/v1/servers/localhost/zones";
const ZONE = `${Z}/example.org.`;

type Send = (method: string, path: string, body?: unknown, key?: string) => Promise<Answer>;

function sender(base: string): Send {
  return async (method, path, body, key = KEY) =>
    await answerOf(
      await fetch(`${base}${path}`, {
        method,
        headers: { "X-API-Key": key, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
}

const rr = (name: string, type: string, ttl: number, contents: string[]) => ({
  name,
  type,
  ttl,
  changetype: "REPLACE",
  records: contents.map((content) => ({ content, disabled: false })),
});

/** The changes sent to both, in order; each compared on status and body. */
const STEPS: [string, string, unknown?, string?][] = [
  ["GET", "/api/v1/servers"],
  ["GET", "/api/v1/servers/localhost"],
  ["POST", Z, {
    name: "example.org.",
    kind: "Native",
    nameservers: ["ns1.example.org.", "ns2.example.org."],
    rrsets: [{
      name: "ns1.example.org.",
      type: "A",
      ttl: 3600,
      records: [{ content: "192.0.2.53", disabled: false }],
    }],
  }],
  ["POST", Z, { name: "example.org.", kind: "Native", nameservers: ["ns1.example.org."] }],
  ["POST", Z, { name: "nodot.org", kind: "Native", nameservers: ["ns1.example.org."] }],
  ["GET", Z],
  ["GET", `${Z}?zone=example.org.`],
  ["GET", `${Z}?zone=nope.org.`],
  ["PATCH", ZONE, {
    rrsets: [
      rr("www.example.org.", "A", 300, ["192.0.2.1", "192.0.2.2"]),
      rr("www.example.org.", "AAAA", 300, ["2001:db8::1"]),
      rr("example.org.", "TXT", 120, ['"hello world" "x"', '"v=spf1 -all"', '"say \\"hi\\""']),
      rr("example.org.", "MX", 600, ["10 mail.example.org.", "20 mx2.example.net."]),
      rr("mail.example.org.", "A", 600, ["192.0.2.25"]),
      rr("alias.example.org.", "CNAME", 60, ["www.example.org."]),
      rr("_sip._tcp.example.org.", "SRV", 60, ["10 5 5060 sip.example.org."]),
      rr("_acme-challenge.example.org.", "TXT", 30, ['"token-1"']),
    ],
  }],
  ["GET", ZONE],
  ["PATCH", ZONE, {
    rrsets: [
      { name: "www.example.org.", type: "AAAA", changetype: "DELETE" },
      rr("www.example.org.", "A", 900, ["192.0.2.3"]),
      rr("_acme-challenge.example.org.", "TXT", 30, ['"token-1"', '"token-2"']),
    ],
  }],
  ["GET", ZONE],
  ["GET", `${ZONE}?rrsets=false`],
  ["PATCH", ZONE, { rrsets: [rr("bad.example.org.", "A", 60, ["300.1.1.1"])] }],
  ["PATCH", ZONE, { rrsets: [rr("bad.example.org.", "TXT", 60, ["no quotes"])] }],
  ["PATCH", ZONE, { rrsets: [rr("bad.example.org.", "MX", 60, ["mail.example.org."])] }],
  ["PATCH", ZONE, { rrsets: [rr("x.example.org", "A", 60, ["192.0.2.1"])] }],
  ["PATCH", ZONE, { rrsets: [rr("x.other.org.", "A", 60, ["192.0.2.1"])] }],
  ["PATCH", ZONE, { rrsets: [{ name: "x.example.org.", type: "A", changetype: "FOO" }] }],
  ["PATCH", ZONE, {
    rrsets: [{ name: "x.example.org.", type: "A", changetype: "REPLACE", records: [] }],
  }],
  ["GET", ZONE],
  ["GET", `${Z}/nope.org.`],
  ["PATCH", `${Z}/nope.org.`, { rrsets: [] }],
  ["DELETE", `${Z}/nope.org.`],
  ["GET", ZONE, undefined, "wrong-key"],
  ["GET", "/api/v1/servers", undefined, "wrong-key"],
];

/** Names dug on both DNS listeners after the API steps. */
const QUESTIONS: [string, string][] = [
  ["www.example.org", "A"],
  ["www.example.org", "AAAA"],
  ["example.org", "MX"],
  ["example.org", "TXT"],
  ["example.org", "NS"],
  ["alias.example.org", "A"],
  ["_sip._tcp.example.org", "SRV"],
  ["_acme-challenge.example.org", "TXT"],
  ["mail.example.org", "A"],
];

Deno.test("PowerDNS API differential: Palisade answers the PowerDNS API and DNS as pdns-server 4.7 does", async () => {
  if (!haveSystem("pdns differential", ["pdns_server", "dig"])) return;
  await using pdns = await startPdns(KEY);
  await using t = await startTestServer({ env: { PALISADE_PDNS_API_KEY: KEY } });
  const ours = sender(t.dnsApi);
  const theirs = sender(pdns.api);
  for (const [method, path, body, key] of STEPS) {
    const want = await theirs(method, path, body, key);
    const got = await ours(method, path, body, key);
    const where = `${method} ${path} ${JSON.stringify(body ?? "")}`;
    if (got.status >= 400) {
      assert(
        got.json && Object.keys(got.body as object).join() === "error",
        `${where}: ${JSON.stringify(got.body)}`,
      );
    }
    assertEquals(comparable(got, want.json), comparable(want, want.json), where);
  }

  // Export: the same records, line for line, once SOA and order are normalized.
  const exports = await Promise.all(
    [theirs, ours].map(async (s) => await s("GET", `${ZONE}/export`)),
  );
  assertEquals(exports[1].status, exports[0].status);
  assertEquals(normalizeExport(String(exports[1].body)), normalizeExport(String(exports[0].body)));

  for (const [name, type] of QUESTIONS) {
    const [p, q] = await Promise.all([
      dig(pdns.dnsPort, [name, type]),
      dig(t.dns.port, [name, type]),
    ]);
    assertEquals(q.status, p.status, `${name} ${type}`);
    assertEquals(q.answer, p.answer, `${name} ${type}`);
  }
  const [pSoa, qSoa] = await Promise.all([
    dig(pdns.dnsPort, ["example.org", "SOA", "+short"]),
    dig(t.dns.port, ["example.org", "SOA", "+short"]),
  ]);
  assertEquals(soaShape(qSoa.raw), soaShape(pSoa.raw));
});

Deno.test("PowerDNS API differential: the documented differences (disabled records, SOA writes)", async () => {
  if (!haveSystem("pdns differential", ["pdns_server"])) return;
  await using pdns = await startPdns(KEY);
  await using t = await startTestServer({ env: { PALISADE_PDNS_API_KEY: KEY } });
  const create = { name: "example.org.", kind: "Native", nameservers: ["ns1.example.org."] };
  const disabled = {
    rrsets: [{
      ...rr("d.example.org.", "A", 60, []),
      records: [{ content: "192.0.2.1", disabled: true }],
    }],
  };
  const soaDelete = { rrsets: [{ name: "example.org.", type: "SOA", changetype: "DELETE" }] };
  for (const [s, status] of [[sender(pdns.api), 204], [sender(t.dnsApi), 501]] as const) {
    assertEquals((await s("POST", Z, create)).status, 201);
    assertEquals((await s("PATCH", ZONE, disabled)).status, status);
  }
  // PowerDNS lets the SOA go; Palisade keeps it (its fields make it) and says so.
  assertEquals((await sender(pdns.api)("PATCH", ZONE, soaDelete)).status, 204);
  const refused = await sender(t.dnsApi)("PATCH", ZONE, soaDelete);
  assertEquals(refused.status, 501);
  assertEquals(typeof (refused.body as { error: unknown }).error, "string");
  assertEquals(normalizeBody([]), []);
});
