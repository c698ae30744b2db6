/**
 * The attestation service on PostgreSQL (lib/attest/pg_attest.ts) with two
 * instances on one database, driven by the reference client in process:
 * a heartbeat is accepted by whichever instance gets it, the compare-and-set
 * in the database decides between instances (a stale cached head is refused
 * as `conflict` and then refreshed), copies of one heartbeat sent to both
 * at once are accepted once, and the purge and the session count span
 * instances; a site's token issued at one instance is verified once among
 * both, with the signals both measured. Needs PostgreSQL (SKIP without it, or a failure with
 * PALISADE_REQUIRE_SYSTEM_TESTS=1).
 */
import { assertEquals } from "../assert.ts";
import { AttestClient, type Transport } from "../../lib/attest/client.ts";
import { sha256Hex } from "../../lib/auth/secret.ts";
import { loadCore } from "../../lib/attest/core.ts";
import type { HeartbeatRequest } from "../../lib/attest/messages.ts";
import { PgAttestService } from "../../lib/attest/pg_attest.ts";
import { pgAttestRepos } from "../../lib/attest/pg_repos.ts";
import { silentLogger } from "../../lib/log/log.ts";
import { PgAsync } from "../../lib/store/pg/pg_async.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";
import { buildToken } from "../helpers/site_tokens.ts";

const SHOP = "https://shop.example";

const OPTIONS = {
  heartbeatMinMs: 2000,
  heartbeatMaxMs: 25000,
  geneSize: 512,
  purgeGraceMs: 1000,
  initPerMinute: 0,
  maxSessions: 3,
  cacheMb: 1,
};

/**
 * What the routes would answer, in process: the accepted body, or `{}` for a
 * refusal; with a site, /init carries its key and every request its origin.
 */
function transport(
  to: () => PgAttestService,
  site: { key: string; origin: string } | null = null,
): Transport {
  const headers = new Headers(site ? { origin: site.origin } : {});
  return {
    async post(path, body) {
      const key = (body as { public_key: string }).public_key;
      if (path === "/init") {
        return await to().init(key, "192.0.2.1", site ?? { key: null, origin: null });
      }
      const outcome = await to().heartbeat(body as HeartbeatRequest, headers);
      return outcome.accepted ? outcome.response : {};
    },
  };
}

/** Two instances (each its own pool, as two processes would have) on one database. */
async function twoInstances(url: string, clock: { now(): number }) {
  const core = await loadCore();
  const open = async () => {
    const store = await PgStore.open({ url, poolSize: 4 });
    const repos = pgAttestRepos(PgAsync.of(store));
    const svc = await PgAttestService.open({
      repos,
      core,
      clock,
      options: OPTIONS,
      log: silentLogger,
    });
    return { store, svc, repos };
  };
  const a = await open();
  const b = await open();
  return {
    core,
    a,
    b,
    async [Symbol.asyncDispose]() {
      await a.store.close();
      await b.store.close();
    },
  };
}

const NAME = "PgAttestService: two instances share sessions through the compare-and-set";
Deno.test(NAME, async () => {
  if (!havePostgres(NAME)) return;
  await using cluster = await startPostgres();
  let now = Date.now();
  const clock = { now: () => now };
  await using both = await twoInstances(cluster.url, clock);
  const { a, b, core } = both;
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
});

const SITE_TEST =
  "PgAttestService: a site's token issued at one instance is verified once among both";
Deno.test(SITE_TEST, async () => {
  if (!havePostgres(SITE_TEST)) return;
  await using cluster = await startPostgres();
  let now = Date.now();
  const clock = { now: () => now };
  await using both = await twoInstances(cluster.url, clock);
  const { a, b, core } = both;
  const secret = "sk_" + "s".repeat(43);
  const site = { id: "site-1", site_key: "pk_shop", secret };
  await a.repos.sites.insert({
    id: site.id,
    name: "shop",
    site_key: site.site_key,
    secret_hash: sha256Hex(secret),
    origins: [SHOP],
    min_chain: 3,
    token_ttl_s: 300,
    counter_slot: 0,
    created_at: now,
    updated_at: now,
  });
  await a.svc.refreshSites();
  await b.svc.refreshSites();
  let turn = 0;
  const client = new AttestClient(
    core,
    transport(() => (turn++ % 2 ? b : a).svc, { key: site.site_key, origin: SHOP }),
    clock.now,
  );
  await client.init();
  for (let i = 0; i < 3; i++) {
    now += 2100;
    assertEquals(await client.heartbeat(), true);
  }
  const token = buildToken(client, site, { hn: "shop.example", iat: now });
  assertEquals(typeof (await b.svc.tokens.issue(token, SHOP)).expires_at, "string");
  const answers = await Promise.all(
    Array.from(
      { length: 8 },
      (_, i) => (i % 2 ? a : b).svc.tokens.verify({ secret, response: token }),
    ),
  );
  const won = answers.filter((x) => x.success);
  assertEquals(won.length, 1);
  assertEquals(won[0].chain_length, 3);
  // Heartbeats of the site's origin were measured, at both instances, into one row.
  assertEquals(won[0].signals?.measured?.heartbeats, 3);
  assertEquals(
    answers.filter((x) => !x.success).map((x) => x["error-codes"][0]),
    Array(7).fill("timeout-or-duplicate"),
  );
});
