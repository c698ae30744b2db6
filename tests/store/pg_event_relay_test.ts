/**
 * Events between two instances over LISTEN/NOTIFY, against a real throwaway
 * cluster: two PgStores on one database, each with its own bus and relay,
 * like two Palisade processes behind a load balancer.
 */
import { assert, assertEquals } from "../assert.ts";
import { clusterPerFile, havePostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";
import { type BusEvent, EventBus, type EventMap } from "../../lib/events/bus.ts";
import { type EventRelay, startEventRelay } from "../../lib/events/event_relay.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";

const cluster = clusterPerFile();
const freshUrl = () => cluster.freshUrl();

interface Instance {
  store: PgStore;
  bus: EventBus;
  relay: EventRelay;
  /** Everything its bus carried, with the origin each came with. */
  seen: { event: BusEvent; origin?: string }[];
}

async function instance(
  url: string,
  id: string,
  opts: Parameters<typeof startEventRelay>[2] = {},
): Promise<Instance> {
  const store = await PgStore.open({ url, poolSize: 3 });
  const bus = new EventBus();
  const seen: Instance["seen"] = [];
  bus.subscribe((event, origin) => seen.push({ event, origin }));
  const relay = await startEventRelay(bus, store, { instanceId: id, ...opts });
  return { store, bus, relay, seen };
}

async function close(...all: Instance[]) {
  for (const i of all) await i.relay.stop();
  await Promise.all(all.map((i) => i.store.close()));
}

function audit(id: number, message: string): EventMap["AuditEvent"] {
  return {
    id: String(id),
    time: "2026-01-01T00:00:00Z",
    actor: "admin",
    event_type: "settings.updated",
    message,
    resource_type: "setting",
    resource_id: "k",
  };
}

const settle = () => new Promise((r) => setTimeout(r, 300));

Deno.test("pg event relay", async (t) => {
  if (!havePostgres("pg event relay")) return;
  try {
    await t.step(
      "an event emitted on A arrives on B once, in order, never echoed to A",
      async () => {
        const url = await freshUrl();
        const a = await instance(url, "a");
        const b = await instance(url, "b");
        try {
          for (let n = 1; n <= 50; n++) {
            a.bus.emit("PeerChanged", {
              id: `p${n}`,
              action: "created",
              interface_id: "i",
              name: "x",
            });
          }
          // Per-instance figures stay on their instance.
          a.bus.emit("AttestSiteStats", { time: "2026-01-01T00:00:00Z" });
          assert(await waitFor(() => b.seen.length >= 50, 5000), `B saw ${b.seen.length} of 50`);
          await settle();
          assertEquals(b.seen.map((s) => s.event.type === "PeerChanged" && s.event.payload.id), [
            ...Array.from({ length: 50 }, (_, k) => `p${k + 1}`),
          ]);
          assert(b.seen.every((s) => s.origin === "a"));
          // A's bus carried its own 51 emits and nothing that came back from B.
          assertEquals(a.seen.length, 51);
          assert(a.seen.every((s) => s.origin === undefined));
          assertEquals(a.relay.stats().sent, 50);
          assertEquals(b.relay.stats().sent, 0);
        } finally {
          await close(a, b);
        }
      },
    );

    await t.step(
      "a frame of exactly 7999 bytes arrives whole; one byte more arrives cut",
      async () => {
        const url = await freshUrl();
        const a = await instance(url, "a");
        const b = await instance(url, "b");
        try {
          // PostgreSQL refuses a payload of 8000 bytes; the frame is {i, n, t, p} as JSON.
          const frameOf = (n: number, message: string) =>
            JSON.stringify({ i: "a", n, t: "AuditEvent", p: audit(n, message) });
          const fill = 7999 - frameOf(1, "").length;
          const fits = "é".repeat(fill / 2) + "x".repeat(fill % 2);
          assertEquals(new TextEncoder().encode(frameOf(1, fits)).length, 7999);
          a.bus.emit("AuditEvent", audit(1, fits));
          a.bus.emit("AuditEvent", audit(2, fits + "y"));
          a.bus.emit("AuditEvent", audit(3, "z".repeat(50_000)));
          assert(await waitFor(() => b.seen.length >= 3, 5000), `B saw ${b.seen.length} of 3`);
          const messages = b.seen.map((s) =>
            s.event.type === "AuditEvent" ? s.event.payload : null
          );
          assertEquals(messages[0], audit(1, fits));
          assertEquals(messages[1], audit(2, [...fits].slice(0, 1024).join("") + "…"));
          assertEquals(messages[2], audit(3, "z".repeat(1024) + "…"));
          assertEquals(a.relay.stats().dropped, 0);
          assertEquals(a.relay.stats().cut, 2);
        } finally {
          await close(a, b);
        }
      },
    );

    await t.step("a cut event is read whole through the receiver's resolver", async () => {
      const url = await freshUrl();
      const full = audit(7, "long ".repeat(5000));
      const a = await instance(url, "a");
      const b = await instance(url, "b", {
        resolvers: { AuditEvent: (cut) => Promise.resolve(cut.id === "7" ? full : null) },
      });
      try {
        a.bus.emit("AuditEvent", full);
        a.bus.emit("ZoneChanged", { zone: "example.org", action: "updated", serial: 2 });
        assert(await waitFor(() => b.seen.length >= 2, 5000));
        // The resolver's await does not let the next event overtake it.
        assertEquals(b.seen.map((s) => s.event), [
          { type: "AuditEvent", payload: full },
          { type: "ZoneChanged", payload: { zone: "example.org", action: "updated", serial: 2 } },
        ]);
      } finally {
        await close(a, b);
      }
    });

    await t.step("a lost listening connection comes back and is reported as missed", async () => {
      const url = await freshUrl();
      let missed = 0;
      const a = await instance(url, "a");
      const b = await instance(url, "b", { onMissed: () => missed++ });
      try {
        await a.store.sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                          WHERE query = 'listen "palisade_events"' AND pid <> pg_backend_pid()`;
        assert(await waitFor(() => missed > 0, 5000), "B did not report the reconnection");
        let sent = 0;
        // Until B listens again a frame may be lost: send until one arrives.
        const arrived = await waitFor(
          () => {
            a.bus.emit("NetworkChanged", { id: `n${++sent}`, action: "created" });
            return b.seen.length > 0;
          },
          10_000,
          100,
        );
        assert(arrived, "nothing arrived after the reconnection");
      } finally {
        await close(a, b);
      }
    });
  } finally {
    await cluster.stop();
  }
});
