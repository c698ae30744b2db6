/**
 * Attestation sites (lib/attest/sites/site_repo.ts, pg_site_repo.ts) behave
 * the same on SQLite and PostgreSQL: reads by id, name and secret hash,
 * listing by name, update, rotation, deletion, a session's site, a taken
 * name, and rollback.
 */
import { assertEquals, assertRejects } from "../assert.ts";
import type { SiteRow } from "../../lib/attest/sites/site_repo.ts";
import { ConflictError } from "../../lib/errors.ts";
import { attestRepos, session } from "./attest_fixtures.ts";
import { repoContract } from "./engines.ts";

const site = (id: string, name: string, slot: number | null): SiteRow => ({
  id,
  name,
  site_key: `pk_${id}`,
  secret_hash: `hash-${id}`,
  origins: ["https://a.example", "https://b.example"],
  min_chain: 3,
  token_ttl_s: 300,
  counter_slot: slot,
  created_at: 100,
  updated_at: 100,
});

repoContract("SiteRepo", {
  "sites are read by id, name and secret hash, and listed by name in code point order": async (
    e,
  ) => {
    const { sites } = attestRepos(e);
    assertEquals(await sites.all(), []);
    await sites.insert(site("s1", "shop", 0));
    await sites.insert(site("s2", "Zoo", null));
    await sites.insert(site("s3", "blog", 1));
    assertEquals((await sites.all()).map((s) => s.name), ["Zoo", "blog", "shop"]);
    assertEquals(await sites.byId("s1"), site("s1", "shop", 0));
    assertEquals((await sites.byName("blog"))?.id, "s3");
    assertEquals((await sites.bySecretHash("hash-s2"))?.counter_slot, null);
    assertEquals(await sites.byId("nope"), undefined);
    assertEquals(await sites.byName("Shop"), undefined);
  },
  "update, secret rotation and deletion": async (e) => {
    const { sites } = attestRepos(e);
    await sites.insert(site("s1", "shop", 0));
    await sites.update("s1", {
      name: "shop2",
      origins: ["https://c.example"],
      min_chain: 5,
      token_ttl_s: 60,
    }, 200);
    await sites.setSecretHash("s1", "hash-new", 300);
    assertEquals(await sites.byId("s1"), {
      ...site("s1", "shop2", 0),
      origins: ["https://c.example"],
      min_chain: 5,
      token_ttl_s: 60,
      secret_hash: "hash-new",
      updated_at: 300,
    });
    assertEquals(await sites.bySecretHash("hash-s1"), undefined);
    await sites.delete("s1");
    assertEquals(await sites.all(), []);
  },
  "a session's site, null without one or for an unknown session": async (e) => {
    const { sites, sessions } = attestRepos(e);
    await sites.insert(site("s1", "shop", 0));
    await sessions.create(session("a".repeat(32), 5000, { site_id: "s1" }));
    await sessions.create(session("b".repeat(32), 5000));
    assertEquals(await sites.siteOfSession("a".repeat(32)), "s1");
    assertEquals(await sites.siteOfSession("b".repeat(32)), null);
    assertEquals(await sites.siteOfSession("c".repeat(32)), null);
  },
  "a taken name is refused by the store": async (e) => {
    const { sites } = attestRepos(e);
    await sites.insert(site("s1", "shop", 0));
    // SQLite's repository leaves the message to the service's check; both refuse the row.
    const err = await assertRejects(() => sites.insert(site("s2", "shop", 1)));
    if (e.name === "postgres") {
      assertEquals(err instanceof ConflictError, true);
      assertEquals([(err as ConflictError).field, (err as ConflictError).code], [
        "name",
        "duplicate_name",
      ]);
    }
    assertEquals((await sites.all()).map((s) => s.id), ["s1"]);
  },
  "a write inside a transaction that throws is undone": async (e) => {
    const { sites } = attestRepos(e);
    await assertRejects(() =>
      e.transactor.tx(async () => {
        await sites.insert(site("s1", "shop", 0));
        assertEquals((await sites.all()).length, 1);
        throw new Error("undo");
      })
    );
    assertEquals(await sites.all(), []);
  },
});
