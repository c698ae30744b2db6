/**
 * Dynamic updates (RFC 2136) against BIND's nsupdate -y: additions and
 * deletions with prerequisites over UDP and TCP, a failed prerequisite or a
 * rule broken by the second record changing nothing (checked through the
 * records API, the serial and dig), unsigned updates REFUSED, a wrong secret
 * or a key without the zone NOTAUTH, the audit actor and the event, and the
 * ACME DNS-01 sequence certbot's and cert-manager's rfc2136 clients send, and the
 * change set an update leaves in the zone's history.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { rawRows } from "../helpers/raw_sql.ts";
import { haveSystem } from "../helpers/system.ts";
import { dig } from "./dig.ts";
import { type DnsStack, startDnsStack } from "./stack.ts";
import { nsupdate, type UpdateKey, zoneRecords } from "./update_tools.ts";

const Z = "upd.test";

async function stack(): Promise<{ s: DnsStack; key: UpdateKey }> {
  const s = await startDnsStack();
  await s.service.createZone("test", { name: Z, admin_email: "h@upd.test" });
  await s.service.createRecord("test", Z, { domain: `old.${Z}`, type: "A", value: "192.0.2.9" });
  const key = await s.tsig.create("test", { name: "upd-key", permissions: ["update"], zones: [Z] });
  return { s, key };
}

const serial = async (s: DnsStack) => (await s.service.getZone(Z)).serial;

Deno.test("nsupdate -y adds and deletes records with prerequisites, over UDP and TCP", async () => {
  if (!haveSystem("nsupdate", ["nsupdate", "dig"])) return;
  const { s, key } = await stack();
  await using _ = s;
  const events: string[] = [];
  s.bus.subscribe((e) => {
    if (e.type === "ZoneChanged") events.push(`${e.payload.zone} ${e.payload.action}`);
  });
  const before = await serial(s);
  const add = await nsupdate(s, key, [
    `prereq nxrrset www.${Z} A`,
    `prereq yxdomain old.${Z}`,
    `update add www.${Z} 300 A 192.0.2.5`,
    `update add www.${Z} 300 A 192.0.2.6`,
    `update add mail.${Z} 600 MX 10 www.${Z}.`,
  ]);
  assert(add.ok, add.out);
  assertEquals(await zoneRecords(s, Z), [
    `mail.${Z} MX 10 www.${Z}. 600`,
    `old.${Z} A 192.0.2.9 3600`,
    `www.${Z} A 192.0.2.5 300`,
    `www.${Z} A 192.0.2.6 300`,
  ]);
  assert(await serial(s) !== before, "the serial moved");
  assertEquals(events, [`${Z} dynamic_update`], "one event, one serial step");
  assertEquals((await dig(s.port, [`www.${Z}`, "A"])).answer.length, 2);
  const audit = rawRows<{ actor: string; event_type: string }>(
    s.store,
    "audit",
    ["actor", "event_type"],
    "rowid",
    { actor: "tsig:upd-key" },
  );
  assertEquals(audit.map((a) => a.event_type), Array(3).fill("dns.record.created"));

  // Over TCP: one RR, then the name's RRset, then a whole name.
  const del = await nsupdate(s, key, [
    `prereq yxrrset www.${Z} A 192.0.2.5`,
    `prereq yxrrset www.${Z} A 192.0.2.6`,
    `update delete www.${Z} A 192.0.2.5`,
    `update delete mail.${Z} MX`,
    `update delete old.${Z}`,
  ], { tcp: true });
  assert(del.ok, del.out);
  assertEquals(await zoneRecords(s, Z), [`www.${Z} A 192.0.2.6 300`]);
  assertEquals((await dig(s.port, [`old.${Z}`, "A"])).status, "NXDOMAIN");
});

Deno.test("a failed prerequisite changes nothing and answers its rcode", async () => {
  if (!haveSystem("nsupdate", ["nsupdate", "dig"])) return;
  const { s, key } = await stack();
  await using _ = s;
  const before = await serial(s);
  const records = await zoneRecords(s, Z);
  const cases: [string, RegExp][] = [
    [`prereq nxrrset old.${Z} A`, /YXRRSET/],
    [`prereq yxrrset old.${Z} TXT`, /NXRRSET/],
    [`prereq yxrrset old.${Z} A 192.0.2.1`, /NXRRSET/],
    [`prereq yxdomain nope.${Z}`, /NXDOMAIN/],
    [`prereq nxdomain old.${Z}`, /YXDOMAIN/],
  ];
  for (const [prereq, rcode] of cases) {
    const r = await nsupdate(s, key, [prereq, `update add new.${Z} 300 A 192.0.2.7`]);
    assert(!r.ok, r.out);
    assertMatch(r.out, rcode);
  }
  assertEquals(await zoneRecords(s, Z), records);
  assertEquals(await serial(s), before);
  assertEquals((await dig(s.port, [`new.${Z}`, "A"])).status, "NXDOMAIN");
});

Deno.test("an update whose second record breaks CNAME exclusivity changes nothing (REFUSED)", async () => {
  if (!haveSystem("nsupdate", ["nsupdate"])) return;
  const { s, key } = await stack();
  await using _ = s;
  const before = await serial(s);
  const r = await nsupdate(s, key, [
    `update add fresh.${Z} 300 A 192.0.2.8`,
    `update add old.${Z} 300 CNAME fresh.${Z}.`,
  ]);
  assert(!r.ok, r.out);
  assertMatch(r.out, /REFUSED/);
  assertEquals(await zoneRecords(s, Z), [`old.${Z} A 192.0.2.9 3600`]);
  assertEquals(await serial(s), before);
  // The first record alone is accepted: the refusal was the CNAME's.
  const alone = await nsupdate(s, key, [`update add fresh.${Z} 300 A 192.0.2.8`]);
  assert(alone.ok, alone.out);
  assertEquals(await zoneRecords(s, Z), [
    `fresh.${Z} A 192.0.2.8 300`,
    `old.${Z} A 192.0.2.9 3600`,
  ]);
});

Deno.test("unsigned updates are REFUSED, a wrong secret or a key without the zone NOTAUTH", async () => {
  if (!haveSystem("nsupdate", ["nsupdate"])) return;
  const { s, key } = await stack();
  await using _ = s;
  await s.service.createZone("test", { name: "other.test", admin_email: "h@other.test" });
  const xfr = await s.tsig.create("test", { name: "xfr-only", permissions: ["transfer"] });
  const line = [`update add x.${Z} 300 A 192.0.2.1`];
  const unsigned = await nsupdate(s, null, line);
  assertMatch(unsigned.out, /REFUSED/);
  const wrong = await nsupdate(s, { name: key.name, secret: btoa("w".repeat(32)) }, line);
  assert(!wrong.ok, wrong.out);
  assertMatch(wrong.out, /NOTAUTH|BADSIG|tsig verify failure/);
  const otherZone = await nsupdate(s, key, [
    "zone other.test",
    "update add x.other.test 60 A 192.0.2.1",
  ]);
  assertMatch(otherZone.out, /NOTAUTH/);
  const noPermission = await nsupdate(s, xfr, line);
  assertMatch(noPermission.out, /NOTAUTH/);
  assertEquals(await zoneRecords(s, Z), [`old.${Z} A 192.0.2.9 3600`]);
  assertEquals(await zoneRecords(s, "other.test"), []);
});

Deno.test("the ACME DNS-01 sequence: _acme-challenge TXT added, seen by dig, deleted", async () => {
  if (!haveSystem("nsupdate", ["nsupdate", "dig"])) return;
  const { s, key } = await stack();
  await using _ = s;
  const name = `_acme-challenge.www.${Z}`;
  const token = "LoqXcYV8q5ONbJQxbmR7SCTNo3tiAXDfowyjxAjEuX0";
  // certbot-dns-rfc2136 adds with a TTL of 10 and deletes the one record; cert-manager the same.
  const add = await nsupdate(s, key, [`zone ${Z}`, `update add ${name} 10 TXT "${token}"`]);
  assert(add.ok, add.out);
  const seen = await dig(s.port, [name, "TXT"]);
  assertEquals(seen.answer, [`${name}. 10 IN TXT "${token}"`]);
  const del = await nsupdate(s, key, [`zone ${Z}`, `update delete ${name} TXT "${token}"`]);
  assert(del.ok, del.out);
  assertEquals((await dig(s.port, [name, "TXT"])).status, "NXDOMAIN");
  assertEquals(await zoneRecords(s, Z), [`old.${Z} A 192.0.2.9 3600`]);
});

Deno.test("a dynamic update is one change set of the zone's history, by its TSIG key", async () => {
  if (!haveSystem("nsupdate", ["nsupdate", "dig"])) return;
  const { s, key } = await stack();
  await using _ = s;
  const add = await nsupdate(s, key, [
    `update add www.${Z} 300 A 192.0.2.5`,
    `update delete old.${Z} A`,
  ]);
  assert(add.ok, add.out);
  const [change] = (await s.service.listHistory(Z)).changes;
  assertEquals([change.actor, change.summary], ["tsig:upd-key", "Dynamic update (RFC 2136)"]);
  assertEquals(change.changes, [
    { name: `old.${Z}`, type: "A", before: [{ value: "192.0.2.9", ttl: 3600 }], after: [] },
    { name: `www.${Z}`, type: "A", before: [], after: [{ value: "192.0.2.5", ttl: 300 }] },
  ]);
});
