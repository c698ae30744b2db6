/**
 * TSIG keys through the DNS management API (docs/dns.md, "TSIG"): created
 * by administrators only, with a random secret as long as the algorithm's
 * MAC (or the one given), shown in the creation's answer only; listed
 * without secrets; deleted; audited and announced as TsigKeyChanged.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { auditRows, dnsApi, watchEvents } from "../helpers/dns_api.ts";
import { haveSystem, run } from "../helpers/system.ts";
import { startTestServer } from "../helpers/test_server.ts";

const bytes = (b64: string) => atob(b64).length;

Deno.test("POST /tsig-keys makes a key with a random secret of the MAC's length, shown once; GET lists without it; DELETE removes it", async () => {
  await using t = await startTestServer();
  await using events = await watchEvents(t);
  const api = await dnsApi(t);
  const made = await api.post("/tsig-keys", {
    name: "Xfr.Example.COM.",
    zones: ["Example.com"],
    permissions: ["transfer"],
  });
  assertEquals(made.status, 201, JSON.stringify(made.body));
  assertEquals(made.body.name, "xfr.example.com");
  assertEquals(made.body.algorithm, "hmac-sha256");
  assertEquals(made.body.zones, ["example.com"]);
  assertEquals(made.body.permissions, ["transfer"]);
  assertEquals(bytes(made.body.secret as string), 32);
  for (const [algorithm, size] of [["hmac-sha512", 64], ["hmac-sha1", 20]] as const) {
    const r = await api.post("/tsig-keys", { name: `k-${algorithm}`, algorithm });
    assertEquals(r.status, 201);
    assertEquals(bytes(r.body.secret as string), size);
    assertEquals(r.body.zones, []);
    assertEquals(r.body.permissions, ["transfer"]);
  }
  const given = btoa("0123456789abcdef0123");
  const imported = await api.post("/tsig-keys", { name: "imported", secret: given });
  assertEquals(imported.body.secret, given);
  const again = await api.post("/tsig-keys", { name: "xfr.example.com" });
  assertEquals(again.status, 409);
  assertEquals((await api.post("/tsig-keys", { name: "k", algorithm: "hmac-md5" })).status, 400);
  assertEquals((await api.post("/tsig-keys", { name: "bad name!" })).status, 400);
  assertEquals((await api.post("/tsig-keys", { name: "short", secret: btoa("x") })).status, 400);

  const list = await api.get("/tsig-keys");
  assertEquals(list.status, 200);
  const names = (list.body.tsig_keys as { name: string }[]).map((k) => k.name);
  assertEquals(names, ["imported", "k-hmac-sha1", "k-hmac-sha512", "xfr.example.com"]);
  const text = JSON.stringify(list.body);
  assert(!text.includes("secret") && !text.includes(made.body.secret as string), text);
  assertMatch((list.body.tsig_keys as { created_at: string }[])[0].created_at, /Z$/);

  assertEquals((await api.del("/tsig-keys/xfr.example.com")).status, 200);
  assertEquals((await api.del("/tsig-keys/xfr.example.com")).status, 404);
  assertEquals(((await api.get("/tsig-keys")).body.tsig_keys as unknown[]).length, 3);

  const audit = (await auditRows(t)).filter((r) => r.resource_type === "dns_tsig_key");
  assertEquals(audit.map((r) => `${r.event_type} ${r.resource_id}`), [
    "dns.tsig_key.created xfr.example.com",
    "dns.tsig_key.created k-hmac-sha512",
    "dns.tsig_key.created k-hmac-sha1",
    "dns.tsig_key.created imported",
    "dns.tsig_key.deleted xfr.example.com",
  ]);
  assert(audit.every((r) => !r.message.includes(made.body.secret as string)));
  await events.waitFor((f) => f.type === "TsigKeyChanged" && f.payload.action === "deleted");
  const changes = events.frames.filter((f) => f.type === "TsigKeyChanged");
  assertEquals(changes[0].payload, { name: "xfr.example.com", action: "created" });
});

Deno.test("only administrators manage TSIG keys", async () => {
  await using t = await startTestServer();
  const operator = await dnsApi(t, "otto", "operator");
  assertEquals((await operator.get("/tsig-keys")).status, 403);
  assertEquals((await operator.post("/tsig-keys", { name: "k" })).status, 403);
  const admin = await dnsApi(t);
  assertEquals((await admin.post("/tsig-keys", { name: "k" })).status, 201);
  assertEquals((await operator.del("/tsig-keys/k")).status, 403);
});

Deno.test("a key made through the API lets dig -y transfer the zone from the server's DNS listener", async () => {
  if (!haveSystem("tsig api dig", ["dig"])) return;
  await using t = await startTestServer({ env: { PALISADE_DNS_AXFR_ALLOW: "192.0.2.99" } });
  const api = await dnsApi(t);
  assertEquals(
    (await api.post("/zones", { name: "api.test", admin_email: "h@api.test" })).status,
    201,
  );
  const key = (await api.post("/tsig-keys", { name: "api-key", zones: ["api.test"] })).body;
  const axfr = (k: string[]) =>
    run("dig", [
      "@127.0.0.1",
      "-p",
      String(t.dns.port),
      "+time=2",
      "+tries=1",
      ...k,
      "api.test",
      "AXFR",
    ], {
      allowFail: true,
    });
  const signed = (await axfr(["-y", `hmac-sha256:api-key:${key.secret}`])).stdout;
  assertEquals(signed.split("\n").filter((l) => /\sSOA\s/.test(l)).length, 2, signed);
  assert(!/Transfer failed|Couldn't verify/.test(signed), signed);
  assertMatch((await axfr([])).stdout, /Transfer failed/);
  assertEquals((await api.del("/tsig-keys/api-key")).status, 200);
  assertMatch((await axfr(["-y", `hmac-sha256:api-key:${key.secret}`])).stdout, /BADKEY/);
});
