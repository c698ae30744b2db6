import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startAttestRig } from "../helpers/attest_server.ts";
import { blake3 } from "@noble/hashes/blake3.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

const KEY = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"; // RFC 8032 test 1

async function init(base: string, body: string) {
  const res = await fetch(`${base}/init`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

Deno.test("POST /init returns exactly the spec's fields, with initial_hash = BLAKE3(session_id ‖ key ‖ salt)", async () => {
  await using rig = await startAttestRig({
    env: { PALISADE_ATTEST_HB_MIN_MS: "1500", PALISADE_ATTEST_HB_MAX_MS: "2500" },
  });
  const { status, json } = await init(rig.t.attest, JSON.stringify({ public_key: KEY }));
  assertEquals(status, 200);
  assertEquals(Object.keys(json).sort(), [
    "expires_at",
    "gene_size",
    "heartbeat_max_interval_ms",
    "heartbeat_min_interval_ms",
    "initial_hash",
    "mutation_order_b64",
    "mutation_step",
    "opcodes_b64",
    "salt",
    "session_id",
  ]);
  assertMatch(json.session_id, /^[0-9a-f]{64}$/);
  assertMatch(json.salt, /^[0-9a-f]{32}$/);
  const expected = bytesToHex(
    blake3(
      new Uint8Array([
        ...hexToBytes(json.session_id),
        ...hexToBytes(KEY),
        ...hexToBytes(json.salt),
      ]),
    ),
  );
  assertEquals(json.initial_hash, expected);
  assertEquals(json.expires_at, rig.clock.now() + 30 * 60_000);
  assertEquals(json.heartbeat_min_interval_ms, 1500);
  assertEquals(json.heartbeat_max_interval_ms, 2500);
  assertEquals(json.gene_size, 512);
  assertEquals(json.mutation_step, 1);
  const ops = atob(json.opcodes_b64).length;
  assert(ops >= 8 && ops <= 16, `program of ${ops} opcodes`);
  assertMatch(json.mutation_order_b64, /^[A-Za-z0-9+/]+=*$/);
  const again = await init(rig.t.attest, JSON.stringify({ public_key: KEY }));
  assert(
    again.json.session_id !== json.session_id && again.json.salt !== json.salt,
    "fresh randomness per session",
  );
});

Deno.test("POST /init answers 500 for a key of the wrong length, not hex, not a point, of small order, or missing", async () => {
  await using rig = await startAttestRig();
  const bad = [
    KEY.slice(0, 62),
    KEY + "00",
    "zz" + KEY.slice(2),
    // y = 2 is not on the curve.
    "0200000000000000000000000000000000000000000000000000000000000000",
    // The identity point has order 1.
    "0100000000000000000000000000000000000000000000000000000000000000",
    12345,
  ];
  for (const key of bad) {
    const res = await init(rig.t.attest, JSON.stringify({ public_key: key }));
    assertEquals(res.status, 500, String(key));
    assertEquals(res.json.status, 500);
  }
  assertEquals((await init(rig.t.attest, "{}")).status, 500);
  assertEquals((await (await fetch(`${rig.t.attest}/stats`)).json()).sessions, 0);
});

Deno.test("POST /init answers 500 when the configured gene size is invalid", async () => {
  await using rig = await startAttestRig({ env: { PALISADE_ATTEST_GENE_SIZE: "10" } });
  assertEquals((await init(rig.t.attest, JSON.stringify({ public_key: KEY }))).status, 500);
  assert((await rig.metrics()).includes("attest_init_failures_total 1"));
});

Deno.test("POST /init answers 500 when storage fails", async () => {
  await using rig = await startAttestRig();
  rig.t.store.db.exec("DROP TABLE attest_sessions");
  assertEquals((await init(rig.t.attest, JSON.stringify({ public_key: KEY }))).status, 500);
});

Deno.test("POST /init answers 429 past the per-address limit and 503 at the session cap", async () => {
  await using limited = await startAttestRig({ env: { PALISADE_ATTEST_INIT_PER_MINUTE: "3" } });
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push((await init(limited.t.attest, JSON.stringify({ public_key: KEY }))).status);
  }
  assertEquals(statuses, [200, 200, 200, 429]);
  limited.clock.advance(60_000);
  assertEquals((await init(limited.t.attest, JSON.stringify({ public_key: KEY }))).status, 200);

  await using capped = await startAttestRig({ env: { PALISADE_ATTEST_MAX_SESSIONS: "2" } });
  const capStatuses = [];
  for (let i = 0; i < 3; i++) {
    capStatuses.push((await init(capped.t.attest, JSON.stringify({ public_key: KEY }))).status);
  }
  assertEquals(capStatuses, [200, 200, 503]);
  assertEquals((await (await fetch(`${capped.t.attest}/stats`)).json()).sessions, 2);
});

Deno.test("POST /init counts per forwarded client only behind a trusted proxy", async () => {
  const initFrom = async (base: string, from: string) => {
    const res = await fetch(`${base}/init`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": from },
      body: JSON.stringify({ public_key: KEY }),
    });
    await res.body?.cancel();
    return res.status;
  };
  const limit = { PALISADE_ATTEST_INIT_PER_MINUTE: "2" };
  for (const workers of ["0", "1"]) {
    await using proxied = await startAttestRig({
      env: { ...limit, PALISADE_TRUSTED_PROXIES: "127.0.0.1", PALISADE_ATTEST_WORKERS: workers },
    });
    const behind = [];
    for (const from of ["203.0.113.1", "203.0.113.1", "203.0.113.1", "198.51.100.2"]) {
      behind.push(await initFrom(proxied.t.attest, from));
    }
    assertEquals(behind, [200, 200, 429, 200], `${workers} thread(s), behind a trusted proxy`);
  }
  // Without a trusted proxy the header is the client's own claim: every request is 127.0.0.1's.
  await using direct = await startAttestRig({ env: limit });
  const statuses = [];
  for (const from of ["203.0.113.1", "198.51.100.2", "192.0.2.3"]) {
    statuses.push(await initFrom(direct.t.attest, from));
  }
  assertEquals(statuses, [200, 200, 429]);
});
