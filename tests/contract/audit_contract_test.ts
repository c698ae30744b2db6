/**
 * The audit repository (lib/audit/audit_repo.ts) and the `AuditLog` over it
 * behave the same on SQLite and PostgreSQL: ids rising with each append,
 * filters, newest-first pages and cursors, the distinct event types, the
 * append-only rule at the database, and an append inside a transaction that
 * rolls back leaving nothing (and announcing nothing).
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { AuditLog } from "../../lib/audit/audit.ts";
import { type AuditRepo, SqliteAuditRepo } from "../../lib/audit/audit_repo.ts";
import { PgAuditRepo } from "../../lib/audit/pg_audit_repo.ts";
import { ManualClock } from "../../lib/clock.ts";
import { type BusEvent, EventBus } from "../../lib/events/bus.ts";
import { paginateAsync } from "../../lib/paging.ts";
import { type Engine, repoContract } from "./engines.ts";

const repoOf = (e: Engine): AuditRepo =>
  e.pick<AuditRepo>({
    sqlite: (db) => new SqliteAuditRepo(db),
    postgres: (db) => new PgAuditRepo(db),
  });

const entry = (n: number) => ({
  actor: n % 2 ? "alice" : "bob",
  event_type: n % 3 ? "settings.updated" : "auth.login",
  message: `change ${n}`,
  resource_type: n % 4 ? "setting" : "user",
  resource_id: `k${n}`,
});

/** Twelve records at 1,000 ms apart, starting at 1,000. */
async function seed(repo: AuditRepo): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= 12; n++) ids.push(await repo.append(entry(n), n * 1000));
  return ids;
}

repoContract("AuditRepo", {
  "append returns rising ids, and rows come back newest first with every field": async (e) => {
    const repo = repoOf(e);
    const ids = await seed(repo);
    for (let i = 1; i < ids.length; i++) assert(ids[i] > ids[i - 1], `ids rise: ${ids}`);
    const rows = await repo.rows({}, { offset: 0 });
    assertEquals(
      rows.map((r) => r.message),
      [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `change ${n}`),
    );
    assertEquals({ ...rows[0] }, { id: ids[11], at: 12_000, ...entry(12) });
  },

  "filters: event type, resource, actor and the time window, bounds as documented": async (e) => {
    const repo = repoOf(e);
    await seed(repo);
    const msgs = async (m: Parameters<AuditRepo["rows"]>[0]) =>
      (await repo.rows(m, { offset: 0 })).map((r) => r.message);
    assertEquals(await msgs({ event_type: "auth.login" }), [
      "change 12",
      "change 9",
      "change 6",
      "change 3",
    ]);
    assertEquals(await msgs({ actor: "bob", resource_type: "user" }), [
      "change 12",
      "change 8",
      "change 4",
    ]);
    assertEquals(await msgs({ resource_id: "k7" }), ["change 7"]);
    // since is inclusive, until exclusive.
    assertEquals(await msgs({ since: 3000, until: 5000 }), ["change 4", "change 3"]);
    assertEquals(await repo.count({ actor: "alice" }), 6);
    assertEquals(await repo.count({ actor: "nobody" }), 0);
    assertEquals(await msgs({ actor: "" }), await msgs({}), "an empty filter value is no filter");
  },

  "event types are distinct and sorted by code point": async (e) => {
    const repo = repoOf(e);
    for (const t of ["b.x", "B.x", "a.x", "b.x"]) {
      await repo.append({ ...entry(1), event_type: t }, 1);
    }
    assertEquals(await repo.eventTypes(), ["B.x", "a.x", "b.x"]);
  },

  "AuditLog pages newest first with the same cursors; a walk serves each record once": async (
    e,
  ) => {
    const repo = repoOf(e);
    await seed(repo);
    const log = new AuditLog(repo, e.transactor, new EventBus(), new ManualClock());
    const seen: string[] = [];
    let cursor: string | undefined;
    const cursors: (string | null)[] = [];
    for (let i = 0; i < 10; i++) {
      const page = await log.list({ limit: 5, cursor });
      seen.push(...page.records.map((r) => r.message));
      assertEquals(page.total, 12);
      cursors.push(page.next_cursor);
      if (!page.next_cursor) break;
      cursor = page.next_cursor;
    }
    assertEquals(seen, [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((n) => `change ${n}`));
    assertEquals(cursors.length, 3);
    assertEquals(cursors[2], null);
    const byOffset = await log.list({ limit: 4, offset: 8, actor: "alice" });
    assertEquals(byOffset.records.length, 0);
    assertEquals(byOffset.total, 6);
    const walked = await paginateAsync({ limit: 100 }, {
      kind: "t",
      shape: ["n"],
      keyOf: (r: { id: number }) => [r.id],
      rows: (w) => repo.rows({ actor: "bob" }, w),
      count: () => repo.count({ actor: "bob" }),
    });
    assertEquals(walked.items.length, 6);
  },

  "the table refuses changes and deletions on both engines": async (e) => {
    await seed(repoOf(e));
    await assertRejects(() => e.raw("UPDATE audit SET message = ?", "x"), Error, "append-only");
    await assertRejects(() => e.raw("DELETE FROM audit"), Error, "append-only");
    assertEquals(
      (await e.raw<{ n: number }>("SELECT count(*) AS n FROM audit")).map((r) => Number(r.n)),
      [12],
    );
  },

  "add() inside a rolled-back transaction leaves no row and announces nothing": async (e) => {
    const repo = repoOf(e);
    const bus = new EventBus();
    const events: BusEvent[] = [];
    bus.subscribe((ev) => events.push(ev));
    const log = new AuditLog(repo, e.transactor, bus, new ManualClock());
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await log.add(entry(1));
        assertEquals(events.length, 0, "nothing announced before the commit");
        throw new Error("Rolled back on purpose");
      })
    );
    assertEquals(await repo.count({}), 0);
    assertEquals(events.length, 0);
    const rec = await e.transactor.tx(() => log.add(entry(2)));
    assertEquals(await repo.count({}), 1);
    assertEquals(events.map((ev) => ev.type), ["AuditEvent"]);
    if (events[0].type === "AuditEvent") assertEquals(events[0].payload.id, String(rec.id));
  },
});
