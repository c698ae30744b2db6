import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startAttestRig } from "../helpers/attest_server.ts";

Deno.test("sessions expire 30 minutes after the last accepted heartbeat, then the purge removes them after the grace period", async () => {
  await using rig = await startAttestRig({ env: { PALISADE_ATTEST_PURGE_GRACE_MS: "60000" } });
  const a = await rig.client();
  const b = await rig.client();
  rig.clock.advance(10 * 60_000);
  assert(await b.heartbeat(), "b slides its expiry");
  const stats = async () => await (await fetch(`${rig.t.attest}/stats`)).json();
  rig.clock.advance(20 * 60_000 + 1); // a: 30 min + 1 ms since init; b: 20 min since its heartbeat
  assertEquals(await stats(), { sessions: 2, expired_sessions: 1, max_chain_length: 1 });
  assertEquals(rig.t.services.attestSqlite!.purgeExpired(), 0, "still inside the grace period");
  rig.clock.advance(60_000);
  assertEquals(rig.t.services.attestSqlite!.purgeExpired(), 1);
  assertEquals(await stats(), { sessions: 1, expired_sessions: 0, max_chain_length: 1 });
  assertEquals(rig.row(a.session!.session_id), undefined);
  assert(rig.row(b.session!.session_id));
});

Deno.test("the highest chain length falls back to the longest remaining chain when the purge removes the session that held it", async () => {
  await using rig = await startAttestRig({ env: { PALISADE_ATTEST_PURGE_GRACE_MS: "0" } });
  const long = await rig.client();
  const short = await rig.client();
  for (let i = 0; i < 3; i++) {
    rig.clock.advance(2100);
    assert(await long.heartbeat());
  }
  rig.clock.advance(2100);
  assert(await short.heartbeat());
  const stats = async () => await (await fetch(`${rig.t.attest}/stats`)).json();
  assertEquals((await stats()).max_chain_length, 3);
  // 30 minutes after its last heartbeat the long chain has expired; the short one slides on.
  rig.clock.advance(29 * 60_000);
  assert(await short.heartbeat());
  rig.clock.advance(60_000);
  assertEquals(rig.t.services.attestSqlite!.purgeExpired(), 1);
  assertEquals(rig.row(long.session!.session_id), undefined);
  assertEquals(await stats(), { sessions: 1, expired_sessions: 0, max_chain_length: 2 });
});

Deno.test("/metrics is Prometheus text: HELP and TYPE for each metric, gauges match /stats, rejections by reason", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  rig.clock.advance(2100);
  assert(await client.heartbeat());
  rig.clock.advance(2100);
  const bad = client.prepareHeartbeat().request;
  bad.gene_commitment = "00".repeat(32);
  client.sign(bad);
  await fetch(`${rig.t.attest}/hb`, {
    method: "POST",
    body: JSON.stringify(bad),
    headers: { "Content-Type": "application/json" },
  });

  const res = await fetch(`${rig.t.attest}/metrics`);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const help = new Map<string, string>();
  const type = new Map<string, string>();
  const samples = new Map<string, number>();
  for (const line of text.trimEnd().split("\n")) {
    let m: RegExpExecArray | null;
    if ((m = /^# HELP ([a-z_]+) (.+)$/.exec(line))) help.set(m[1], m[2]);
    else if ((m = /^# TYPE ([a-z_]+) (gauge|counter)$/.exec(line))) type.set(m[1], m[2]);
    else if ((m = /^([a-z_]+)(\{reason="[a-z_]+"\})? (\d+(?:\.\d+)?)$/.exec(line))) {
      assert(type.has(m[1]), `sample ${m[1]} before its TYPE line`);
      samples.set(m[1] + (m[2] ?? ""), Number(m[3]));
    } else throw new Error(`unparsable line: ${JSON.stringify(line)}`);
  }
  for (const gauge of ["attest_sessions", "attest_expired_sessions", "attest_max_chain_length"]) {
    assertEquals(type.get(gauge), "gauge");
    assert(help.get(gauge), `HELP of ${gauge}`);
  }
  assertEquals(samples.get("attest_sessions"), 1);
  assertEquals(samples.get("attest_expired_sessions"), 0);
  assertEquals(samples.get("attest_max_chain_length"), 1);
  assertEquals(type.get("attest_heartbeats_accepted_total"), "counter");
  assertEquals(samples.get("attest_heartbeats_accepted_total"), 1);
  assertEquals(samples.get('attest_heartbeats_rejected_total{reason="gene_commitment"}'), 1);
  assertEquals(samples.get('attest_heartbeats_rejected_total{reason="signature"}'), 0);
});
