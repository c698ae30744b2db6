/**
 * ZSK rollover on a manual clock: the waits (Ipub, Iret) from the zone's
 * TTLs and the propagation delay, each step at its time and not before, the
 * refusals, a late step pushing the removal back, automatic rotation, and a
 * restart applying what fell due. Expected times are worked out by hand from
 * the TTLs the test sets.
 */
import { assert, assertEquals, assertRejects } from "../../../tests/assert.ts";
import { rawRow } from "../../../tests/helpers/raw_sql.ts";
import { tempStore } from "../../../tests/helpers/temp_store.ts";
import { dnsTestService } from "../../../tests/helpers/dns_service.ts";
import type { ManualClock } from "../../clock.ts";
import { ConflictError, ValidationError } from "../../errors.ts";
import type { Store } from "../../store/store.ts";
import { sqliteDnsRepos } from "../dns_repos.ts";
import type { DnssecKey } from "../dns_service.ts";
import { DnsIndex } from "../zone_index.ts";
import { advanceRollovers, maxSignedTtl, publishWait, retireWait } from "./rollover.ts";
import { RolloverScheduler } from "./rollover_scheduler.ts";

const Z = "example.com";
const S = 1000;
const DAY = 86_400 * S;

async function setup(store: Store, clock?: ManualClock) {
  const index = new DnsIndex(sqliteDnsRepos(store));
  await index.load();
  const t = dnsTestService(store, { index, clock, propagationDelay: 600 });
  return { ...t, index };
}

/** A zone with default_ttl 3600, minimum 300 and one record of TTL 86400; DNSSEC on. */
async function signedZone(store: Store) {
  const t = await setup(store);
  await t.service.createZone("alice", { name: Z, admin_email: `h@${Z}`, minimum: 300 });
  await t.service.createRecord("alice", Z, { domain: `www.${Z}`, type: "A", value: "192.0.2.1" });
  await t.service.createRecord("alice", Z, {
    domain: `txt.${Z}`,
    type: "TXT",
    value: '"long"',
    ttl: 86_400,
  });
  await t.service.setDnssec("alice", Z, { enable: true });
  return t;
}

async function zsks(t: Awaited<ReturnType<typeof setup>>): Promise<DnssecKey[]> {
  return (await t.service.dnssecStatus(Z)).keys.filter((k) => k.key_type === "ZSK");
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The ConflictError (or `cls`) `fn` rejects with. */
async function refusal(fn: () => Promise<unknown>, cls = ConflictError) {
  return (await assertRejects(fn, cls)) as ConflictError;
}

Deno.test("Ipub is the propagation delay plus the DNSKEY TTL; Iret the delay plus the largest signed TTL", () => {
  const z = { default_ttl: 3600, minimum: 300, ns_ttl: null, maxDataTtl: 86_400 };
  assertEquals(publishWait(z, 600), 4200);
  assertEquals(retireWait(z, 600), 87_000);
  // The apex NS TTL counts; the NSEC TTL (lesser of SOA TTL and minimum) never exceeds the SOA's.
  assertEquals(
    maxSignedTtl({ default_ttl: 300, minimum: 3600, ns_ttl: 7200, maxDataTtl: 60 }),
    7200,
  );
  assertEquals(maxSignedTtl({ default_ttl: 300, minimum: 3600, ns_ttl: null, maxDataTtl: 0 }), 300);
  assertEquals(retireWait({ default_ttl: 2, minimum: 2, ns_ttl: null, maxDataTtl: 2 }, 1), 3);
});

Deno.test("rotate publishes a new ZSK and schedules the switch after Ipub and the removal Iret later", async () => {
  await using st = await tempStore();
  const t = await signedZone(st.store);
  const t0 = t.clock.now();
  const [old] = await zsks(t);
  const serial = (await t.service.getZone(Z)).serial;
  const r = await t.service.rotateDnssec("alice", Z);
  // Ipub = 600 + 3600 s; Iret = 600 + 86400 s (the TXT record's TTL).
  const activate = t0 + 4200 * S;
  const remove = activate + 87_000 * S;
  assertEquals(
    [r.success, r.old_key_id, r.rollover_completion_date],
    [true, old.id, iso(remove)],
  );
  const [was, now] = await zsks(t);
  assertEquals([was.id, was.state, was.retire_at, was.remove_at, was.expires_at], [
    old.id,
    "active",
    iso(activate),
    iso(remove),
    iso(remove),
  ]);
  assertEquals([now.id, now.state, now.publish_at, now.activate_at, now.expires_at], [
    r.new_key_id,
    "published",
    iso(t0),
    iso(activate),
    null,
  ]);
  assertEquals([now.algorithm, now.bits, now.flags], [old.algorithm, old.bits, 256]);
  assertEquals((await t.service.dnssecStatus(Z)).rollover, {
    old_key_id: old.id,
    new_key_id: r.new_key_id,
    completion_date: iso(remove),
  });
  assertEquals((await t.service.getZone(Z)).serial, serial + 1);
  const z = t.index.zone(Z)!;
  assertEquals(z.dnskeys.length, 3, "KSK, old and new ZSK published");
  assertEquals(
    z.signingKeys.map((k) => k.keyTag).sort(),
    [
      (await t.service.dnssecStatus(Z)).keys[0].key_tag,
      old.key_tag,
    ].sort(),
  );
  assert(t.events.some((e) =>
    e.type === "ZoneChanged" && e.payload.action === "dnssec_rotated" &&
    e.payload.serial === serial + 1
  ));
  const rotated = await t.audit.list({ event_type: "dns.dnssec.rotated", limit: 5, offset: 0 });
  assertEquals(rotated.records.map((a) => [a.actor, a.resource_id]), [["alice", Z]]);
});

Deno.test("each step comes when due and not before: switch, then removal; the last removed ZSK stays listed", async () => {
  await using st = await tempStore();
  const t = await signedZone(st.store);
  const t0 = t.clock.now();
  const [old] = await zsks(t);
  const r = await t.service.rotateDnssec("alice", Z);
  const activate = t0 + 4200 * S;
  const remove = activate + 87_000 * S;
  const serial = (await t.service.getZone(Z)).serial;

  t.clock.set(activate - 1);
  assertEquals(await advanceRollovers(t.ctx), 0);
  assertEquals((await zsks(t)).map((k) => k.state), ["active", "published"]);
  t.clock.set(activate);
  assertEquals(await advanceRollovers(t.ctx), 2);
  assertEquals((await zsks(t)).map((k) => [k.id, k.state]), [[old.id, "retired"], [
    r.new_key_id,
    "active",
  ]]);
  assertEquals((await t.service.getZone(Z)).serial, serial + 1, "one serial for the switch");
  let z = t.index.zone(Z)!;
  assertEquals(z.dnskeys.length, 3, "the retired ZSK stays published");
  assert(!z.signingKeys.some((k) => k.keyTag === old.key_tag), "the retired ZSK signs no more");
  assertEquals(z.signingKeys.length, 2);
  const actions = t.events.flatMap((e) =>
    e.type === "ZoneChanged" && e.payload.serial === serial + 1 ? [e.payload.action] : []
  );
  assertEquals(actions, ["dnssec_key_activated", "dnssec_key_retired"]);

  t.clock.set(remove - 1);
  assertEquals(await advanceRollovers(t.ctx), 0);
  t.clock.set(remove);
  assertEquals(await advanceRollovers(t.ctx), 1);
  const status = await t.service.dnssecStatus(Z);
  assertEquals(status.keys.map((k) => [k.key_type, k.state]), [
    ["KSK", "active"],
    ["ZSK", "active"],
    ["ZSK", "removed"],
  ]);
  assertEquals(status.rollover, null);
  z = t.index.zone(Z)!;
  assertEquals([z.dnskeys.length, z.signingKeys.length], [2, 2]);
  assertEquals(
    rawRow<{ private_key: string }>(st.store, "dnssec_keys", ["private_key"], { id: old.id })
      ?.private_key,
    "",
    "a removed key's private key is erased",
  );
  const steps = (await t.audit.list({ actor: "system", limit: 10, offset: 0 })).records;
  assertEquals(steps.map((a) => a.event_type).sort(), [
    "dns.dnssec.key_activated",
    "dns.dnssec.key_removed",
    "dns.dnssec.key_retired",
  ]);

  // A second rollover: afterwards only its removed ZSK is listed.
  const r2 = await t.service.rotateDnssec("alice", Z);
  t.clock.advance(100 * DAY);
  await advanceRollovers(t.ctx);
  t.clock.advance(100 * DAY);
  await advanceRollovers(t.ctx);
  assertEquals((await zsks(t)).map((k) => [k.id, k.state]), [
    [r2.new_key_id, "active"],
    [r.new_key_id, "removed"],
  ]);
  assertEquals(rawRow(st.store, "dnssec_keys", ["id"], { id: old.id }), undefined);
});

Deno.test("rotate refuses a zone without DNSSEC (dnssec_disabled) and one with a rollover under way (rollover_in_progress)", async () => {
  await using st = await tempStore();
  const t = await setup(st.store);
  await t.service.createZone("alice", { name: Z, admin_email: `h@${Z}` });
  const off = await refusal(() => t.service.rotateDnssec("alice", Z));
  assertEquals([off.field, off.code], ["enable", "dnssec_disabled"]);
  await t.service.setDnssec("alice", Z, { enable: true });
  await t.service.rotateDnssec("alice", Z);
  const serial = (await t.service.getZone(Z)).serial;
  for (const step of ["published", "retired"]) {
    const busy = await refusal(() => t.service.rotateDnssec("alice", Z));
    assertEquals(busy.code, "rollover_in_progress", step);
    t.clock.advance(4200 * S);
    await advanceRollovers(t.ctx);
  }
  assertEquals((await zsks(t)).map((k) => k.state), ["active", "removed"], "no third ZSK was made");
  assertEquals((await t.service.getZone(Z)).serial, serial + 2, "the refusals changed nothing");
  await t.service.rotateDnssec("alice", Z);
  // Disabled mid-rollover: refused as disabled.
  await t.service.setDnssec("alice", Z, { enable: false });
  const later = await refusal(() => t.service.rotateDnssec("alice", Z));
  assertEquals(later.code, "dnssec_disabled");
});

Deno.test("a step taken late makes the removal wait a whole Iret from the actual retirement", async () => {
  await using st = await tempStore();
  const t = await signedZone(st.store);
  await t.service.rotateDnssec("alice", Z);
  // The server was down past the planned removal: the switch happens now, the removal Iret later.
  t.clock.advance(10 * DAY);
  const late = t.clock.now();
  assertEquals(await advanceRollovers(t.ctx), 2);
  const [old] = await zsks(t);
  assertEquals([old.state, old.remove_at], ["retired", iso(late + 87_000 * S)]);
  assertEquals((await t.service.dnssecStatus(Z)).rollover?.completion_date, iso(late + 87_000 * S));
  t.clock.advance(87_000 * S - 1);
  assertEquals(await advanceRollovers(t.ctx), 0);
  t.clock.advance(1);
  assertEquals(await advanceRollovers(t.ctx), 1);
});

Deno.test("automatic rotation: a rollover starts once the active ZSK has signed zsk_rotation_days", async () => {
  await using st = await tempStore();
  const t = await signedZone(st.store);
  const status = await t.service.setDnssec("alice", Z, { enable: true, zsk_rotation_days: 30 });
  assertEquals(status.zsk_rotation_days, 30);
  const set =
    (await t.audit.list({ event_type: "dns.dnssec.updated", limit: 5, offset: 0 })).records;
  assertEquals(set.length, 1);
  const scheduler = new RolloverScheduler(t.ctx, { checkMs: 3_600_000 });
  t.clock.advance(30 * DAY - 1);
  await scheduler.tick();
  assertEquals((await zsks(t)).length, 1, "not yet");
  t.clock.advance(1);
  await scheduler.tick();
  const [old, fresh] = await zsks(t);
  assertEquals([old.state, fresh.state, fresh.key_type], ["active", "published", "ZSK"]);
  const rotated = await t.audit.list({ event_type: "dns.dnssec.rotated", limit: 5, offset: 0 });
  assertEquals(rotated.records.map((a) => a.actor), ["system"]);
  // The new key's 30 days count from when it starts signing, not from its publication.
  t.clock.advance(4200 * S);
  await scheduler.tick();
  assertEquals((await zsks(t)).map((k) => k.state), ["retired", "active"]);
  t.clock.advance(87_000 * S);
  await scheduler.tick();
  t.clock.advance(30 * DAY - 87_000 * S - 1);
  await scheduler.tick();
  assertEquals((await zsks(t)).map((k) => k.state), ["active", "removed"]);
  t.clock.advance(1);
  await scheduler.tick();
  assertEquals((await zsks(t)).map((k) => k.state), ["active", "published", "removed"]);

  // null turns it off; out of range is refused.
  assertEquals(
    (await t.service.setDnssec("alice", Z, { enable: true, zsk_rotation_days: null }))
      .zsk_rotation_days,
    null,
  );
  for (const bad of [0, 3651, 1.5]) {
    const e = await refusal(
      () => t.service.setDnssec("alice", Z, { enable: true, zsk_rotation_days: bad }),
      ValidationError,
    );
    assertEquals(e.field, "zsk_rotation_days");
  }
});

Deno.test("after a restart the scheduler's first pass applies what fell due while the server was down", async () => {
  await using st = await tempStore();
  const before = await signedZone(st.store);
  const r = await before.service.rotateDnssec("alice", Z);
  // A new process over the same store: new index, service and scheduler; the clock has moved on.
  before.clock.advance(4200 * S);
  const after = await setup(st.store, before.clock);
  assertEquals((await zsks(after)).map((k) => k.state), ["active", "published"]);
  const scheduler = new RolloverScheduler(after.ctx, { checkMs: 3_600_000 });
  scheduler.start();
  await scheduler.stop();
  assertEquals((await zsks(after)).map((k) => [k.id, k.state]), [
    [r.old_key_id, "retired"],
    [r.new_key_id, "active"],
  ]);
  const incoming = (await zsks(after))[1].key_tag;
  assert(after.index.zone(Z)!.signingKeys.some((k) => k.keyTag === incoming));
});
