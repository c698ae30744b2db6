/**
 * The attestation service on PostgreSQL (lib/attest/pg_attest.ts) with two
 * instances on one database, driven by the reference client in process:
 * a heartbeat is accepted by whichever instance gets it, the compare-and-set
 * in the database decides between instances (a stale cached head is refused
 * as `conflict` and then refreshed), copies of one heartbeat sent to both
 * at once are accepted once, and the purge and the session count span
 * instances. Needs PostgreSQL (SKIP without it, or a failure with
 * PALISADE_REQUIRE_SYSTEM_TESTS=1).
 */
import { assertEquals } from "../assert.ts";
import { AttestClient, type Transport } from "../../lib/attest/client.ts";
import { loadCore } from "../../lib/attest/core.ts";
import type { HeartbeatRequest } from "../../lib/attest/messages.ts";
import { PgAttestService } from "../../lib/attest/pg_attest.ts";
import { pgAttestRepos } from "../../lib/attest/pg_repos.ts";
import { silentLogger } from "../../lib/log/log.ts";
import { PgAsync } from "../../lib/store/pg/pg_async.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";

const OPTIONS = {
  heartbeatMinMs: 2000,
  heartbeatMaxMs: 25000,
  geneSize: 512,
  purgeGraceMs: 1000,
  initPerMinute: 0,
  maxSessions: 3,
  cacheMb: 1,
};

/** What the routes would answer, in process: the accepted body, or `{}` for a refusal. */
function transport(to: () => PgAttestService): Transport {
  return {
    async post(path, body) {
      if (path === "/init") return await to().init((body as { public_key: string }).public_key);
      const outcome = await to().heartbeat(body as HeartbeatRequest);
      return outcome.accepted ? outcome.response : {};
    },
  };
}

const NAME = "PgAttestService: two instances share sessions through the compare-and-set";
Deno.test(NAME, async () => {
  if (!havePostgres(NAME)) return;
  await using cluster = await startPostgres();
  const core = await loadCore();
  let now = Date.now();
  const clock = { now: () => now };
  const open = async () => {
    const store = await PgStore.open({ url: cluster.url, poolSize: 4 });
    const repos = pgAttestRepos(PgAsync.of(store));
    const svc = await PgAttestService.open({
      repos,
      core,
      clock,
      options: OPTIONS,
      log: silentLogger,
    });
    return { store, svc };
  };
  const a = await open();
  const b = await open();
  try {
    const client = new AttestClient(core, transport(() => a.svc), clock.now);
    await client.init();
    // Accepted by B, which reads the row; A still caches the head /init stored.
    const hb1 = client.prepareHeartbeat();
    const first = await b.svc.heartbeat(hb1.request);
    assertEquals(first.accepted, true);
    client.commit(hb1, first.accepted ? first.response : {});
    // The same heartbeat at A: its cache holds the old head, the checks pass, the row says no.
    assertEquals(await a.svc.heartbeat(hb1.request), { accepted: false, reason: "conflict" });
    // The failed compare-and-set dropped A's copy: the replay now fails against the row itself.
    const again = await a.svc.heartbeat(hb1.request);
    assertEquals(again.accepted, false);
    assertEquals(again.accepted === false && again.reason === "conflict", false);
    // The next heartbeat is accepted by A from the row.
    now += 2100;
    const hb2 = client.prepareHeartbeat();
    const second = await a.svc.heartbeat(hb2.request);
    assertEquals(second.accepted, true);
    client.commit(hb2, second.accepted ? second.response : {});

    // Four copies of one heartbeat at each instance at once: one acceptance in all.
    now += 2100;
    const hb3 = client.prepareHeartbeat();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).svc.heartbeat(hb3.request)),
    );
    assertEquals(outcomes.filter((o) => o.accepted).length, 1);
    assertEquals((await a.svc.stats()).max_chain_length >= 2, true);

    // The cap counts this instance's creations and, after a purge pass, everyone's.
    await new AttestClient(core, transport(() => b.svc), clock.now).init();
    await new AttestClient(core, transport(() => b.svc), clock.now).init();
    assertEquals((await a.svc.stats()).sessions, 1, "A has not recounted yet");
    assertEquals(await a.svc.purgeExpired(), 0);
    assertEquals((await a.svc.stats()).sessions, 3);
    const full = new AttestClient(core, transport(() => a.svc), clock.now);
    await full.init().then(() => "created", (err) => err.constructor.name).then((r) =>
      assertEquals(r, "UnavailableError")
    );

    // Expired past the grace period: either instance's purge deletes them for both.
    now += 31 * 60_000 + OPTIONS.purgeGraceMs;
    assertEquals(await b.svc.purgeExpired(), 3);
    assertEquals([(await a.svc.stats()).expired_sessions, await a.svc.purgeExpired()], [0, 0]);
    assertEquals((await a.svc.stats()).sessions, 0);
  } finally {
    await a.store.close();
    await b.store.close();
  }
});
