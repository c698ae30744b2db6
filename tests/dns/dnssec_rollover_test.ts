/**
 * A ZSK pre-publish rollover on a running server, judged by a validating
 * resolver (docs/dns.md, "Rollover"). The zone's TTLs are 2 s and the
 * propagation delay 2 s, so Ipub = Iret = 4 s, room for the checks between
 * steps. BIND's `delv`, anchored at the zone's KSK, must fully validate
 * `www A` before the rotation, right after it (the new ZSK published: three
 * DNSKEYs), after the switch (the new ZSK signs, the old one still
 * published) and after the removal (two DNSKEYs); the API status shows the
 * key states move on their own, no step before its time.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, type DnsApi, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";
import { dig } from "./dig.ts";

const Z = "rollover.test";
/** Ipub and Iret: the propagation delay (2 s) plus the TTLs (2 s). */
const WAIT_MS = 4000;

interface Key {
  id: string;
  key_type: string;
  key_tag: number;
  state: string;
  public_key: string;
  activate_at: string;
  retire_at: string | null;
  remove_at: string | null;
  expires_at: string | null;
}

async function keys(api: DnsApi): Promise<Key[]> {
  const r = await api.get(`/zones/${Z}/dnssec`);
  assertEquals(r.status, 200, JSON.stringify(r.body));
  return r.body.keys as Key[];
}

/** Polls the status until `done` holds (at most 10 s); returns the keys and when they were read. */
async function until(api: DnsApi, done: (k: Key[]) => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const k = await keys(api);
    if (done(k)) return { keys: k, at: Date.now() };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the rollover did not reach "${what}" within 10 s`);
}

Deno.test("delv validates the zone through every step of a ZSK rollover, which advances by itself", async () => {
  if (!haveSystem("dnssec rollover", ["delv", "dig"])) return;
  await using t = await startTestServer({
    env: { PALISADE_DNSSEC_PROPAGATION_DELAY: "2", PALISADE_DNSSEC_ROLLOVER_CHECK_MS: "200" },
  });
  await using events = await watchEvents(t);
  const api = await dnsApi(t);
  const created = await api.post("/zones", {
    name: Z,
    admin_email: `h@${Z}`,
    default_ttl: 2,
    minimum: 2,
  });
  assertEquals(created.status, 201, JSON.stringify(created.body));
  await api.post(`/zones/${Z}/records`, {
    domain: `www.${Z}`,
    type: "A",
    value: "192.0.2.10",
    ttl: 2,
  });
  const on = await api.post(`/zones/${Z}/dnssec`, { enable: true });
  const ksk = (on.body.keys as Key[]).find((k) => k.key_type === "KSK")!;
  const old = (on.body.keys as Key[]).find((k) => k.key_type === "ZSK")!;

  const dir = await Deno.makeTempDir({ prefix: "palisade-rollover-" });
  const anchors = `${dir}/anchors.conf`;
  await Deno.writeTextFile(
    anchors,
    `trust-anchors { ${Z}. static-key 257 3 13 "${ksk.public_key}"; };\n`,
  );
  /** delv's verdict on www A, the DNSKEY count and the key tags of the RRSIGs over www A. */
  const check = async (when: string, dnskeys: number, signer: number) => {
    const r = await run("delv", [
      "@127.0.0.1",
      "-p",
      String(t.dns.port),
      "-a",
      anchors,
      `+root=${Z}`,
      "+nocrypto",
      `www.${Z}`,
      "A",
    ], { allowFail: true });
    const out = `${r.stdout}\n${r.stderr}`;
    assertMatch(out, /; fully validated/, `${when}:\n${out}`);
    assertMatch(out, /192\.0\.2\.10/, `${when}:\n${out}`);
    const d = await dig(t.dns.port, [Z, "DNSKEY"]);
    assertEquals(d.answer.filter((l) => / DNSKEY /.test(l)).length, dnskeys, `${when}: DNSKEYs`);
    const a = await dig(t.dns.port, ["+dnssec", `www.${Z}`, "A"]);
    const tags = a.answer.filter((l) => / RRSIG A /.test(l)).map((l) => Number(l.split(/\s+/)[10]));
    assertEquals(tags, [signer], `${when}: the ZSK signing www A`);
  };
  try {
    await check("before the rotation", 2, old.key_tag);
    const serial0 = (await api.get(`/zones/${Z}`)).body.serial as number;

    const before = Date.now();
    const r = await api.post(`/zones/${Z}/dnssec/rotate`);
    const after = Date.now();
    assertEquals(r.status, 200, JSON.stringify(r.body));
    assertEquals([r.body.success, r.body.old_key_id], [true, old.id]);
    const completion = Date.parse(r.body.rollover_completion_date as string);
    assert(
      completion >= before + 2 * WAIT_MS && completion <= after + 2 * WAIT_MS,
      `completion ${r.body.rollover_completion_date} is rotate time + Ipub + Iret`,
    );
    let k = await keys(api);
    const fresh = k.find((x) => x.id === r.body.new_key_id)!;
    assertEquals([fresh.key_type, fresh.state], ["ZSK", "published"]);
    const was = k.find((x) => x.id === old.id)!;
    assertEquals([was.state, was.retire_at], ["active", fresh.activate_at]);
    assertEquals([was.remove_at, was.expires_at], [
      r.body.rollover_completion_date,
      r.body.rollover_completion_date,
    ]);
    await check("right after the rotation", 3, old.key_tag);

    const switched = await until(
      api,
      (k) => k.some((x) => x.id === fresh.id && x.state === "active"),
      "switched",
    );
    k = switched.keys;
    assertEquals(
      k.find((x) => x.id === old.id)!.state,
      "retired",
      "the old ZSK retires as the new one signs",
    );
    assert(switched.at >= Date.parse(fresh.activate_at), "not activated before its time");
    await check("after the switch", 3, fresh.key_tag);

    const removed = await until(
      api,
      (k) => k.some((x) => x.id === old.id && x.state === "removed"),
      "removed",
    );
    assert(removed.at >= completion, "not removed before its time");
    assertEquals(removed.keys.map((x) => [x.key_type, x.state]), [["KSK", "active"], [
      "ZSK",
      "active",
    ], ["ZSK", "removed"]]);
    await check("after the removal", 2, fresh.key_tag);

    const serial = (await api.get(`/zones/${Z}`)).body.serial as number;
    assertEquals(serial, serial0 + 3, "one serial per step: rotation, switch, removal");
    for (
      const action of [
        "dnssec_rotated",
        "dnssec_key_activated",
        "dnssec_key_retired",
        "dnssec_key_removed",
      ]
    ) {
      await events.waitFor((f) =>
        f.type === "ZoneChanged" && f.payload.zone === Z && f.payload.action === action
      );
    }
    const audit = (await auditRows(t, { resource_id: Z })).filter((a) =>
      a.event_type.startsWith("dns.dnssec.")
    );
    assertEquals(audit.map((a) => [a.actor, a.event_type]), [
      ["admin", "dns.dnssec.enabled"],
      ["admin", "dns.dnssec.rotated"],
      ["system", "dns.dnssec.key_activated"],
      ["system", "dns.dnssec.key_retired"],
      ["system", "dns.dnssec.key_removed"],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
