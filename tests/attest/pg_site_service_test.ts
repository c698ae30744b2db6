/**
 * The site service on PostgreSQL (lib/attest/sites/site_service.ts over
 * PgSiteRepo and PgAsync, with PgAttestService.forSites): a site created at
 * one instance is audited, announced after commit, and served by the other
 * after its refreshSites(); a taken name is the same ConflictError as on
 * SQLite; rotation and deletion; the site page's recent sessions come from
 * the shared signals table. Needs PostgreSQL (SKIP without it, or a failure
 * with PALISADE_REQUIRE_SYSTEM_TESTS=1).
 */
import { assertEquals, assertRejects } from "../assert.ts";
import { AttestClient, type Transport } from "../../lib/attest/client.ts";
import { loadCore } from "../../lib/attest/core.ts";
import type { HeartbeatRequest } from "../../lib/attest/messages.ts";
import { PgAttestService } from "../../lib/attest/pg_attest.ts";
import { pgAttestRepos } from "../../lib/attest/pg_repos.ts";
import { SiteService } from "../../lib/attest/sites/site_service.ts";
import { AuditLog } from "../../lib/audit/audit.ts";
import { PgAuditRepo } from "../../lib/audit/pg_audit_repo.ts";
import { ConflictError } from "../../lib/errors.ts";
import { EventBus } from "../../lib/events/bus.ts";
import { silentLogger } from "../../lib/log/log.ts";
import { PgAsync } from "../../lib/store/pg/pg_async.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";
import { waitFor } from "../helpers/wait.ts";

const SHOP = "https://shop.example";
const OPTIONS = {
  heartbeatMinMs: 2000,
  heartbeatMaxMs: 25000,
  geneSize: 512,
  purgeGraceMs: 1000,
  initPerMinute: 0,
  maxSessions: 100,
  cacheMb: 1,
};

const NAME = "SiteService on PostgreSQL: a site made at one instance serves at the other";
Deno.test(NAME, async () => {
  if (!havePostgres(NAME)) return;
  await using cluster = await startPostgres();
  const core = await loadCore();
  let now = Date.now();
  const clock = { now: () => now };
  const stores: PgStore[] = [];
  const open = async () => {
    const store = await PgStore.open({ url: cluster.url, poolSize: 4 });
    stores.push(store);
    const db = PgAsync.of(store);
    const repos = pgAttestRepos(db);
    const attest = await PgAttestService.open({
      repos,
      core,
      clock,
      options: OPTIONS,
      log: silentLogger,
    });
    const events = new EventBus();
    const audit = new AuditLog(new PgAuditRepo(db), db, events, clock);
    const sites = new SiteService({
      repo: repos.sites,
      tx: db,
      ...{ audit, events, clock },
      attest: attest.forSites,
    });
    return { attest, sites, audit, events };
  };
  try {
    const a = await open();
    const b = await open();
    const announced: string[] = [];
    a.events.subscribe((e) => {
      if (e.type === "SiteChanged") announced.push((e.payload as { action: string }).action);
    });
    const made = await a.sites.create({ name: "shop", origins: [SHOP] }, "alice");
    assertEquals(announced, ["created"]);
    // The announcement reloads A's own directory.
    assertEquals(
      await waitFor(() => a.attest.sites.byKey(made.site_key)?.id === made.id, 2000),
      true,
    );
    const audited = await a.audit.list({ resource_id: made.id, limit: 10, offset: 0 });
    assertEquals(audited.records.map((r) => r.event_type), ["attest_site.created"]);
    const taken = await assertRejects(() =>
      b.sites.create({ name: "shop", origins: [SHOP] }, "bob")
    );
    assertEquals(taken instanceof ConflictError, true);
    assertEquals([(taken as ConflictError).field, (taken as ConflictError).code], [
      "name",
      "duplicate_name",
    ]);

    // B learns of the site on refresh (the wiring calls it on SiteChanged, local or over NOTIFY).
    assertEquals(b.attest.sites.byKey(made.site_key), undefined);
    await b.attest.refreshSites();
    assertEquals(b.attest.sites.byKey(made.site_key)?.id, made.id);
    const headers = new Headers({ origin: SHOP });
    const transport: Transport = {
      async post(path, body) {
        if (path === "/init") {
          const key = (body as { public_key: string }).public_key;
          return await b.attest.init(key, "192.0.2.1", { key: made.site_key, origin: SHOP });
        }
        const outcome = await a.attest.heartbeat(body as HeartbeatRequest, headers);
        return outcome.accepted ? outcome.response : {};
      },
    };
    const client = new AttestClient(core, transport, clock.now);
    await client.init();
    now += 2100;
    assertEquals(await client.heartbeat(), true);
    const recent = await b.sites.recentSessions(made.id, 10);
    assertEquals(recent.map((r) => [r.session_id, r.heartbeats]), [[
      client.session!.session_id,
      1,
    ]]);

    const rotated = await b.sites.rotateSecret(made.id, "bob");
    assertEquals(await a.sites.authenticate(made.secret), null);
    assertEquals((await a.sites.authenticate(rotated.secret))?.id, made.id);
    await b.sites.delete(made.id, "bob");
    assertEquals(await a.sites.list(), []);
    const trail = await a.audit.list({ resource_id: made.id, limit: 10, offset: 0 });
    assertEquals(trail.records.map((r) => r.event_type).sort(), [
      "attest_site.created",
      "attest_site.deleted",
      "attest_site.secret_rotated",
    ]);
  } finally {
    for (const s of stores) await s.close();
  }
});
