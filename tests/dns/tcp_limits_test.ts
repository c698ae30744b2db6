/**
 * DNS over TCP cannot be starved by one client (issue 19): an address holds
 * at most its share of connections, and at the global cap the longest-idle
 * connection makes room for a new one instead of the new one being refused.
 */
import { assert, assertEquals } from "../assert.ts";
import { haveSystem } from "../helpers/system.ts";
import { dig } from "./dig.ts";
import { startDnsStack } from "./stack.ts";

/** Resolves true when the server has closed `conn` (a read ends) within `ms`. */
async function closedWithin(conn: Deno.Conn, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((r) => timer = setTimeout(() => r(false), ms));
  const ended = conn.read(new Uint8Array(1)).then(() => true, () => true);
  try {
    return await Promise.race([ended, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function openIdle(port: number, n: number): Promise<Deno.Conn[]> {
  const conns: Deno.Conn[] = [];
  for (let i = 0; i < n; i++) conns.push(await Deno.connect({ hostname: "127.0.0.1", port }));
  return conns;
}

function closeAll(conns: Deno.Conn[]): void {
  for (const c of conns) {
    try {
      c.close();
    } catch { /* closed by the server */ }
  }
}

const NAME =
  "TCP limits: 200 idle connections from one address do not block TCP queries from another";
Deno.test(NAME, async () => {
  if (!haveSystem(NAME, ["dig"])) return;
  await using s = await startDnsStack();
  await s.service.createZone("t", { name: "example.test", admin_email: "h@example.test" });
  const idle = await openIdle(s.port, 200);
  try {
    // Past its share (8 by default) an address's connections are closed at once.
    assert(await closedWithin(idle[199], 2000), "the 200th connection of one address stays open");
    assertEquals(await closedWithin(idle[0], 200), false, "the first ones are kept");
    // Another client address (127.0.0.2 is loopback too) still gets its answers over TCP.
    const soa = await dig(s.port, ["+tcp", "-b", "127.0.0.2", "example.test", "SOA"]);
    assertEquals(soa.status, "NOERROR", soa.raw);
  } finally {
    closeAll(idle);
  }
});

const EVICT = "TCP limits: at the global cap a new connection closes the longest-idle one";
Deno.test(EVICT, async () => {
  if (!haveSystem(EVICT, ["dig"])) return;
  await using s = await startDnsStack({ tcp: { maxConnections: 4, perAddress: 100 } });
  await s.service.createZone("t", { name: "example.test", admin_email: "h@example.test" });
  const idle = await openIdle(s.port, 4);
  try {
    const soa = await dig(s.port, ["+tcp", "example.test", "SOA"]);
    assertEquals(soa.status, "NOERROR", "the new connection is served, not refused");
    assert(await closedWithin(idle[0], 2000), "the longest-idle connection made room");
    assertEquals(await closedWithin(idle[3], 200), false, "the newest idle one is kept");
  } finally {
    closeAll(idle);
  }
});

const FIRST =
  "TCP limits: a connection that sends no complete query is closed after the first-query wait";
Deno.test(FIRST, async () => {
  await using s = await startDnsStack({ tcp: { firstQueryMs: 300, idleMs: 10_000 } });
  const [conn] = await openIdle(s.port, 1);
  try {
    const started = Date.now();
    assert(await closedWithin(conn, 3000), "never closed");
    const after = Date.now() - started;
    assert(after >= 250, `closed after ${after} ms, before the wait was over`);
  } finally {
    closeAll([conn]);
  }
});
