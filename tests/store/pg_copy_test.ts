/**
 * `deno task db:copy` against a real throwaway PostgreSQL cluster: a SQLite
 * store filled through the real services (tunnels, DNS with DNSSEC and TSIG,
 * users, tokens, two-factor sign-in, audit, attestation with a site) is copied whole; a second
 * copy without --force is refused and writes nothing; --force replaces.
 */
import { DatabaseSync } from "node:sqlite";
import { startReceiver } from "../webhooks/receiver.ts";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { loadCore } from "../../lib/attest/core.ts";
import { base32Decode, stepAt, totpCode } from "../../lib/auth/totp.ts";
import { sqliteTables } from "../../lib/store/pg/catalog.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { apiClient } from "../helpers/api_client.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { havePostgres, startPostgres } from "../helpers/postgres.ts";
import { rawDump, rawPgDump } from "../helpers/raw_sql.ts";
import { addSite, buildToken, postToken, siteClient } from "../helpers/site_tokens.ts";
import { call, startTestServer } from "../helpers/test_server.ts";
import { seedSso } from "../helpers/sso_seed.ts";
import { SoftAuthenticator } from "../helpers/soft_authenticator.ts";

const SCRIPT = new URL("../../scripts/db_copy.ts", import.meta.url).pathname;
const SHOP = "https://shop.example";
const Z = "copy.test";

async function dbCopy(args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SCRIPT, ...args],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(120_000),
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** A store with rows in every domain, written by the services over their APIs. */
async function populate(dir: string): Promise<void> {
  await using t = await startTestServer({
    dataDir: dir,
    // A failed delivery's retry stays pending (webhook_retries) until the store is copied.
    env: { PALISADE_WEBHOOK_ALLOW_LOCAL: "true", PALISADE_WEBHOOK_RETRY_BASE_MS: "300000" },
  });
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wgcopy", address_v4: "10.97.0.1/24" }))
    .body;
  assertEquals(
    (await api.post(`/interfaces/${iface.id}/peers`, { name: "p1", preshared_key: true })).status,
    201,
  );
  const p2 = (await api.post(`/interfaces/${iface.id}/peers`, { name: "p2" })).body;
  // Peer limits (docs/peer_lifecycle.md).
  assertEquals((await api.put(`/peers/${p2.id}/limits`, { quota_bytes: 1_000_000 })).status, 200);
  await t.addUser("olga", "operator");
  await t.createToken("ci");
  const bad = await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: { username: "olga", password: "wrong-password-123" },
  });
  assertEquals(bad.status, 401);
  const dns = await dnsApi(t);
  assertEquals((await dns.post("/zones", { name: Z, admin_email: `h@${Z}` })).status, 201);
  // Peer names in DNS: the interface's zone and the records marked as its peers'.
  assertEquals((await api.put(`/interfaces/${iface.id}`, { dns_zone: Z })).status, 200);
  for (const [i, value] of ["192.0.2.1", "192.0.2.2"].entries()) {
    const r = await dns.post(`/zones/${Z}/records`, {
      domain: `w${i}.${Z}`,
      type: "A",
      value,
      ttl: 300,
    });
    assertEquals(r.status, 201, JSON.stringify(r.body));
  }
  assertEquals((await dns.post(`/zones/${Z}/dnssec`, { enable: true })).status, 200);
  // An unsigned zone's changes after its first are journal steps (IXFR).
  assertEquals(
    (await dns.post("/zones", { name: "plain.test", admin_email: "h@plain.test" })).status,
    201,
  );
  for (const value of ["a", "b", "c"]) {
    const r = await dns.post("/zones/plain.test/records", {
      domain: "t.plain.test",
      type: "TXT",
      value,
      ttl: 60,
    });
    assertEquals(r.status, 201);
  }
  const badDns = await call(`${t.dnsApi}/api/v1/auth/login`, {
    method: "POST",
    json: { username: "olga", password: "wrong-password-123" },
  });
  assertEquals(badDns.status, 401);
  const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  assertEquals(
    (await dns.post("/tsig-keys", { name: "copy-key", secret, zones: [Z] })).status,
    201,
  );
  const scope = { zones: [Z], types: ["TXT"], names: ["_acme-challenge.*"], access: "write" };
  assertEquals((await dns.post("/api-keys", { name: "copy-key", scope })).status, 201);
  const site = await addSite(t, { name: "shop", origins: [SHOP], min_chain: 1 });
  const c = await siteClient(await loadCore(), t.attest, site, SHOP, () => Date.now());
  assert(await c.heartbeat(), "heartbeat accepted");
  const token = buildToken(c, site, { hn: "shop.example", iat: Date.now() });
  assertEquals((await postToken(t.attest, token, SHOP)).status, 200);
  await using receiver = startReceiver(200);
  const hook = await t.services.webhooks.create("admin", {
    url: receiver.url,
    events: ["zone.changed"],
  });
  assertEquals((await t.services.webhooks.sendTest("admin", hook.id)).status, "delivered");
  await using failing = startReceiver(500);
  const retried = await t.services.webhooks.create("admin", {
    url: failing.url,
    events: ["zone.changed"],
  });
  await t.services.webhooks.rotateSecret("admin", retried.id);
  assertEquals((await t.services.webhooks.sendTest("admin", retried.id)).status, "retrying");
  await seedSso(t);
  // Last: with two-factor sign-in on (or a passkey), the logins above would need a second step.
  const twoFactor = t.services.auth.twoFactor;
  const admin = (await t.services.users.credentials("admin"))!.user;
  const rp = { id: "localhost", origin: "http://localhost" };
  const { passkeys } = t.services.auth;
  const key = await SoftAuthenticator.create();
  const created = await key.register(await passkeys.registrationOptions(admin, rp), rp.origin);
  await passkeys.register(admin, "copy-key", created, rp);
  await passkeys.authenticate(await key.assert(await passkeys.loginOptions(rp), rp.origin), rp);
  const enrolment = await twoFactor.begin(admin);
  const code = await totpCode(base32Decode(enrolment.secret), stepAt(Date.now()));
  assertEquals((await twoFactor.confirm(admin, code)).recovery_codes.length, 10);
}

Deno.test("db:copy copies every table of a populated SQLite store, refuses a non-empty target, and --force replaces", async () => {
  if (!havePostgres("db:copy")) return;
  await using pg = await startPostgres();
  const dir = await Deno.makeTempDir({ prefix: "palisade-copy-" });
  try {
    await populate(dir);
    const file = `${dir}/palisade.db`;
    const db = new DatabaseSync(file, { readOnly: true });
    const tables = sqliteTables(db).map((t) => t.name);
    const source = rawDump(db, tables);
    db.close();
    // Every table has rows but those no step above writes (the journal's pending rows are
    // consumed by each serial bump).
    assertEquals(
      tables.filter((t) => source[t].length === 0),
      ["dns_journal_pending", "firewall_rules", "routes", "settings"],
    );

    const first = await dbCopy(["--from", file, "--to", pg.url]);
    assertEquals(first.code, 0, first.stderr);
    assertMatch(first.stdout, /row counts checked/);
    const store = await PgStore.open({ url: pg.url });
    try {
      assertEquals(await rawPgDump(store.sql, tables), source);

      // Refused without --force: exit code 1, a clear message, and not one row changed.
      await store.sql`INSERT INTO meta (key, value) VALUES ('marker', 'kept')`;
      const before = await rawPgDump(store.sql, tables);
      const refused = await dbCopy(["--from", file, "--to", pg.url]);
      assertEquals(refused.code, 1);
      assertMatch(refused.stderr, /The PostgreSQL database is not empty \(.*\); pass --force/);
      assertEquals(await rawPgDump(store.sql, tables), before);

      const forced = await dbCopy(["--from", file, "--to", pg.url, "--force"]);
      assertEquals(forced.code, 0, forced.stderr);
      assertEquals(await rawPgDump(store.sql, tables), source);

      // The identity sequences moved past the copied ids.
      const maxAudit = Math.max(
        ...source.audit.map((l) => JSON.parse(l).find(([k]: [string]) => k === "id")[1]),
      );
      const [{ id }] = await store.sql`INSERT INTO audit (at, actor, event_type, message,
        resource_type, resource_id) VALUES (0, 'test', 'test', 'test', 'test', 'test') RETURNING id`;
      assertEquals(id, maxAudit + 1);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
