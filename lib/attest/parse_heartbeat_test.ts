import { assert, assertEquals } from "../../tests/assert.ts";
import { ValidationError } from "../errors.ts";
import { parseHeartbeat } from "./parse_heartbeat.ts";
import { HeartbeatRequestSchema } from "./schema.ts";

/** Deterministic PRNG so a failing case can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => (s ^= s << 13, s ^= s >>> 17, s ^= s << 5, (s >>> 0) / 2 ** 32);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(a: T[]) => a[Math.floor(next() * a.length)],
  };
}

const hex = (n: number, r: ReturnType<typeof rng>) =>
  Array.from({ length: n }, () => "0123456789abcdefABCDEF"[r.int(22)]).join("");

function validBody(r: ReturnType<typeof rng>): Record<string, unknown> {
  return {
    session_id: hex(64, r),
    prev_hash: hex(64, r),
    timestamp: r.int(2 ** 41),
    entropy_data: {
      events: Array.from(
        { length: r.int(30) },
        () => ({ x: r.next() * 2000 - 100, y: r.next() * 1000, t: r.int(5000) }),
      ),
    },
    stack_state: { stack: Array.from({ length: r.int(33) }, () => r.int(2 ** 32)), ip: r.int(17) },
    fingerprint: {
      aspectRatio: (r.next() * 3).toFixed(10),
      devicePixelRatio: String(r.int(4) + 1),
      hardwareConcurrency: r.int(64),
    },
    mutation_step: r.int(1000),
    gene_commitment: hex(64, r),
    signature: hex(128, r),
  };
}

const BAD_VALUES: unknown[] = [
  undefined,
  null,
  "",
  "x",
  -1,
  1.5,
  2 ** 53,
  2 ** 32,
  70000,
  NaN,
  [],
  {},
  true,
  "0".repeat(65),
];

/** Replaces one leaf (or a whole branch) of `body` with a bad value. */
function mutate(body: Record<string, unknown>, r: ReturnType<typeof rng>): Record<string, unknown> {
  const copy = structuredClone(body);
  const paths: (string | number)[][] = [
    ["session_id"],
    ["prev_hash"],
    ["timestamp"],
    ["entropy_data"],
    ["entropy_data", "events"],
    ["stack_state"],
    ["stack_state", "stack"],
    ["stack_state", "ip"],
    ["fingerprint"],
    ["fingerprint", "aspectRatio"],
    ["fingerprint", "devicePixelRatio"],
    ["fingerprint", "hardwareConcurrency"],
    ["mutation_step"],
    ["gene_commitment"],
    ["signature"],
  ];
  const events = (copy.entropy_data as { events: unknown[] }).events;
  if (events.length) {
    paths.push(["entropy_data", "events", 0, r.pick(["x", "y", "t"])], [
      "entropy_data",
      "events",
      0,
    ]);
  }
  const stack = (copy.stack_state as { stack: unknown[] }).stack;
  if (stack.length) paths.push(["stack_state", "stack", 0]);
  const path = r.pick(paths);
  let at = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  const bad = r.pick(BAD_VALUES);
  if (bad === undefined) delete at[last];
  else at[last] = bad;
  return copy;
}

Deno.test("parseHeartbeat() accepts and refuses exactly what HeartbeatRequestSchema does, for 20,000 bodies", () => {
  const r = rng(20261122);
  let accepted = 0;
  for (let i = 0; i < 20_000; i++) {
    const base = validBody(r);
    const body = i % 2 === 0 ? base : mutate(base, r);
    const viaZod = HeartbeatRequestSchema.safeParse(body);
    let viaParser: unknown;
    let refused = false;
    try {
      viaParser = parseHeartbeat(body);
    } catch (err) {
      assert(err instanceof ValidationError, `case ${i}: ${err}`);
      refused = true;
    }
    assertEquals(
      refused,
      !viaZod.success,
      `case ${i}: parser ${refused ? "refused" : "accepted"}, zod ${
        viaZod.success ? "accepted" : JSON.stringify(viaZod.error.issues[0])
      }: ${JSON.stringify(body).slice(-400)}`,
    );
    if (viaZod.success) {
      assertEquals(viaParser, viaZod.data, `case ${i}`);
      accepted++;
    }
  }
  assert(accepted > 10_000, `only ${accepted} accepted: the mutations should not all fail`);
});

Deno.test("parseHeartbeat() names the first bad field", () => {
  const body = validBody(rng(1));
  delete body.signature;
  try {
    parseHeartbeat(body);
    throw new Error("accepted");
  } catch (err) {
    assertEquals((err as ValidationError).message, 'Missing field "signature"');
  }
});
