import { assert, assertEquals } from "../assert.ts";
import type { HeartbeatRequest } from "../../lib/attest/messages.ts";
import type { AttestClient } from "../../lib/attest/client.ts";
import { type AttestRig, postHb, startAttestRig } from "../helpers/attest_server.ts";

/** Spacing that keeps five heartbeats per session inside the rate limit. */
const GAP_MS = 2100;

function headerShape(h: Headers): string[] {
  return [...h.keys()].filter((k) => k !== "date").sort().map((k) =>
    `${k}: ${k === "content-length" ? "*" : h.get(k)}`
  );
}

/**
 * Sends a heartbeat that breaks exactly one check and asserts the bare
 * rejection, no change to the session, the counter of that check, and that
 * the next valid heartbeat is still accepted.
 */
async function rejectsOnly(
  rig: AttestRig,
  reason: string,
  tamper: (req: HeartbeatRequest, client: AttestClient) => HeartbeatRequest | void,
  opts: { resign?: boolean; nextAccepted?: boolean } = {},
): Promise<void> {
  const client = await rig.client();
  rig.clock.advance(GAP_MS);
  assert(await client.heartbeat(), "a first valid heartbeat is accepted");
  const sid = client.session!.session_id;
  const before = rig.row(sid);
  const counter = await rig.rejected(reason);
  rig.clock.advance(GAP_MS);
  const prepared = client.prepareHeartbeat();
  const req = tamper(prepared.request, client) ?? prepared.request;
  if (opts.resign !== false) client.sign(req);
  const res = await postHb(rig, req);
  assertEquals(res.status, 200, reason);
  assertEquals(res.text, '{"status":"ok"}', reason);
  assertEquals(await rig.rejected(reason), counter + 1, `counter of ${reason}`);
  assertEquals(rig.row(sid), before, `session unchanged after ${reason}`);
  if (opts.nextAccepted !== false) {
    rig.clock.advance(GAP_MS);
    assert(await client.heartbeat(), `next valid heartbeat accepted after ${reason}`);
  }
}

Deno.test("a chain of 12 heartbeats is accepted and /stats reports its length", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  for (let i = 1; i <= 12; i++) {
    rig.clock.advance(GAP_MS);
    assert(await client.heartbeat(), `heartbeat ${i}`);
  }
  const stats = await (await fetch(`${rig.t.attest}/stats`)).json();
  assertEquals(stats, { sessions: 1, expired_sessions: 0, max_chain_length: 12 });
  const row = rig.row(client.session!.session_id)!;
  assertEquals(row.chain_length, 12);
  assertEquals(row.pending_step, 13);
  assertEquals(row.last_hash, client.prevHash, "server and client agree on the chain head");
});

Deno.test("every rejection has the same bare body and the same headers", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const bad = client.prepareHeartbeat().request;
  const a = await postHb(rig, { ...bad, signature: "0".repeat(128) });
  const b = await postHb(rig, { ...bad, session_id: "f".repeat(64) });
  assertEquals(a.text, '{"status":"ok"}');
  assertEquals(b.text, '{"status":"ok"}');
  assertEquals(headerShape(a.headers), headerShape(b.headers));
});

Deno.test("check 1: a sixth request within 10 s for a session is rejected, before the lookup", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const sid = client.session!.session_id;
  const before = rig.row(sid);
  const counter = await rig.rejected("rate_limit");
  // Five requests that fail later checks still count towards the limit.
  for (let i = 0; i < 5; i++) {
    await postHb(rig, { ...client.prepareHeartbeat().request, signature: "0".repeat(128) });
  }
  const valid = await postHb(rig, client.prepareHeartbeat().request);
  assertEquals(valid.text, '{"status":"ok"}');
  assertEquals(await rig.rejected("rate_limit"), counter + 1);
  assertEquals(rig.row(sid), before);
  rig.clock.advance(10_000);
  assert(await client.heartbeat(), "accepted once the window has passed");
});

Deno.test("check 2: an unknown session id is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "unknown_session", (r) => {
    r.session_id = "ab".repeat(32);
  });
});

Deno.test("check 3: an expired session rejects every later heartbeat", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const sid = client.session!.session_id;
  rig.clock.advance(GAP_MS);
  assert(await client.heartbeat());
  const before = rig.row(sid)!;
  rig.clock.set((before.expires_at as number) + 1);
  const counter = await rig.rejected("expired");
  const res = await postHb(rig, client.prepareHeartbeat().request);
  assertEquals(res.text, '{"status":"ok"}');
  assertEquals(await rig.rejected("expired"), counter + 1);
  assertEquals(rig.row(sid), before);
  // Per the spec's state table, expiry is final: the next valid heartbeat fails too.
  rig.clock.advance(GAP_MS);
  assertEquals(await client.heartbeat(), false);
});

Deno.test("check 4: a signature by another key, or over other bytes, is rejected", async () => {
  await using rig = await startAttestRig();
  const other = await rig.client();
  await rejectsOnly(rig, "signature", (r) => {
    other.sign(r);
  }, { resign: false });
  await rejectsOnly(rig, "signature", (r) => {
    r.timestamp += 1; // signed before the change
  }, { resign: false });
});

Deno.test("check 5: a prev_hash other than the stored chain head is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "hash_chain", (r) => {
    r.prev_hash = r.prev_hash.replace(/^./, (c) => (c === "0" ? "1" : "0"));
  });
});

Deno.test("check 6: a mutation step other than the pending one is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "mutation_step", (r) => {
    r.mutation_step += 1;
  });
});

Deno.test("check 7: a pending mutation that cannot be applied rejects and changes nothing", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const sid = client.session!.session_id;
  const store = rig.t.store;
  const order = rig.row(sid)!.pending_order as string;
  // Corrupt the stored order (version byte 0): the server cannot apply it.
  store.run("UPDATE attest_sessions SET pending_order = ? WHERE session_id = ?", "AAEB", sid);
  // The service keeps a copy of the state it wrote; a change behind its back must drop it.
  rig.t.services.attestSqlite!.forgetCached(sid);
  const before = rig.row(sid);
  const counter = await rig.rejected("mutation");
  rig.clock.advance(GAP_MS);
  const res = await postHb(rig, client.prepareHeartbeat().request);
  assertEquals(res.text, '{"status":"ok"}');
  assertEquals(await rig.rejected("mutation"), counter + 1);
  assertEquals(rig.row(sid), before);
  store.run("UPDATE attest_sessions SET pending_order = ? WHERE session_id = ?", order, sid);
  rig.t.services.attestSqlite!.forgetCached(sid);
  rig.clock.advance(GAP_MS);
  assert(await client.heartbeat(), "accepted once the order is sound again");
});

Deno.test("check 8: a gene commitment other than the server's is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "gene_commitment", (r) => {
    r.gene_commitment = "00".repeat(32);
  });
});

Deno.test("check 9: a timestamp more than 30 s away from server time is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "timestamp_drift", (r) => {
    r.timestamp -= 30_001;
  });
  await rejectsOnly(rig, "timestamp_drift", (r) => {
    r.timestamp += 30_001;
  });
});

Deno.test("check 10: too few mouse events are rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "mouse_events", (r) => {
    r.entropy_data.events = [{ x: 0, y: 0, t: 0 }, { x: 50, y: 0, t: 200 }];
  });
});

Deno.test("check 10: a mouse path shorter than 10 px is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "mouse_distance", (r) => {
    r.entropy_data.events = [{ x: 0, y: 0, t: 0 }, { x: 4, y: 0, t: 200 }, {
      x: 4,
      y: 5.9,
      t: 300,
    }];
  });
});

Deno.test("check 10: a mouse faster than 2 px/ms, or with zero elapsed time, is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "mouse_speed", (r) => {
    r.entropy_data.events = [{ x: 0, y: 0, t: 0 }, { x: 300, y: 0, t: 110 }, {
      x: 600,
      y: 0,
      t: 220,
    }];
  });
  await rejectsOnly(rig, "mouse_speed", (r) => {
    r.entropy_data.events = [{ x: 0, y: 0, t: 5 }, { x: 30, y: 0, t: 5 }, { x: 60, y: 0, t: 5 }];
  });
});

Deno.test("check 10: a mouse path without a pause of 100 ms is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "mouse_pauses", (r) => {
    r.entropy_data.events = Array.from(
      { length: 20 },
      (_, i) => ({ x: i * 10, y: i * 3, t: i * 60 }),
    );
  });
});

Deno.test("check 11: an aspect ratio outside 0.5–3.0 is rejected", async () => {
  await using rig = await startAttestRig();
  for (const aspectRatio of ["0.4999999999", "3.0000000001", "wide"]) {
    await rejectsOnly(rig, "aspect_ratio", (r) => {
      r.fingerprint = { ...r.fingerprint, aspectRatio };
    });
  }
});

Deno.test("check 11: a device pixel ratio outside (0, 5] is rejected", async () => {
  await using rig = await startAttestRig();
  for (const devicePixelRatio of ["0", "5.01", "-1"]) {
    await rejectsOnly(rig, "device_pixel_ratio", (r) => {
      r.fingerprint = { ...r.fingerprint, devicePixelRatio };
    });
  }
});

Deno.test("check 11: a hardware concurrency of 0 is rejected", async () => {
  await using rig = await startAttestRig();
  await rejectsOnly(rig, "hardware_concurrency", (r) => {
    r.fingerprint = { ...r.fingerprint, hardwareConcurrency: 0 };
  });
});

Deno.test("boundaries the spec allows are accepted", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  rig.clock.advance(GAP_MS);
  const now = rig.clock.now();
  assert(
    await client.heartbeat({
      timestamp: now - 30_000,
      // Exactly 10 px (a 6-8-10 triangle) over 101 ms, with a gap of exactly 100 ms as the pause.
      events: [{ x: 0, y: 0, t: 0 }, { x: 6, y: 8, t: 100 }, { x: 6, y: 8, t: 101 }],
      fingerprint: { aspectRatio: "3.0000000000", devicePixelRatio: "5.0", hardwareConcurrency: 1 },
    }),
  );
  rig.clock.advance(GAP_MS);
  assert(
    await client.heartbeat({
      fingerprint: {
        aspectRatio: "0.5000000000",
        devicePixelRatio: "0.1",
        hardwareConcurrency: 64,
      },
    }),
  );
});

Deno.test("a body that is not JSON or lacks a field is refused with 400, never 500", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const valid = client.prepareHeartbeat().request;
  const { signature: _omit, ...noSignature } = valid;
  const cases: [string, string][] = [
    ["not json", "{not json"],
    ["empty", ""],
    ["array", "[]"],
    ["missing signature", JSON.stringify(noSignature)],
    ["wrong type", JSON.stringify({ ...valid, timestamp: "now" })],
    ["no events", JSON.stringify({ ...valid, entropy_data: {} })],
  ];
  for (const [name, body] of cases) {
    const res = await fetch(`${rig.t.attest}/hb`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    });
    assertEquals(res.status, 400, name);
    const json = await res.json();
    assertEquals(json.status, 400, name);
  }
  assertEquals(rig.row(client.session!.session_id)!.chain_length, 0);
});

Deno.test("a heartbeat failing several checks is counted under the first one in the spec's order", async () => {
  await using rig = await startAttestRig();
  const cases: [string, (r: HeartbeatRequest) => void][] = [
    ["signature", (r) => {
      r.signature = "00".repeat(64);
      r.prev_hash = "00".repeat(32);
    }],
    ["hash_chain", (r) => {
      r.prev_hash = "00".repeat(32);
      r.mutation_step += 1;
    }],
    ["mutation_step", (r) => {
      r.mutation_step += 1;
      r.gene_commitment = "00".repeat(32);
    }],
    ["gene_commitment", (r) => {
      r.gene_commitment = "00".repeat(32);
      r.timestamp -= 60_000;
    }],
    ["timestamp_drift", (r) => {
      r.timestamp -= 60_000;
      r.entropy_data.events = [];
    }],
    ["mouse_events", (r) => {
      r.entropy_data.events = [];
      r.fingerprint = { ...r.fingerprint, hardwareConcurrency: 0 };
    }],
  ];
  for (const [reason, tamper] of cases) {
    const client = await rig.client();
    rig.clock.advance(GAP_MS);
    const req = client.prepareHeartbeat().request;
    tamper(req);
    if (req.signature !== "00".repeat(64)) client.sign(req);
    const before = await rig.rejected(reason);
    assertEquals((await postHb(rig, req)).text, '{"status":"ok"}');
    assertEquals(await rig.rejected(reason), before + 1, reason);
  }
  // Expired and badly signed: expiry comes first.
  const late = await rig.client();
  rig.clock.advance(30 * 60_000 + 1);
  const expired = late.prepareHeartbeat().request;
  expired.signature = "00".repeat(64);
  const before = await rig.rejected("expired");
  await postHb(rig, expired);
  assertEquals(await rig.rejected("expired"), before + 1);
});

Deno.test("the rate limit applies before the lookup: a flood for an unknown session is counted as rate_limit", async () => {
  await using rig = await startAttestRig();
  const client = await rig.client();
  const req = { ...client.prepareHeartbeat().request, session_id: "9f".repeat(32) };
  const unknown = await rig.rejected("unknown_session");
  const limited = await rig.rejected("rate_limit");
  for (let i = 0; i < 7; i++) await postHb(rig, req);
  assertEquals(await rig.rejected("unknown_session"), unknown + 5);
  assertEquals(await rig.rejected("rate_limit"), limited + 2);
});
