/**
 * POST /cli/execute with the host layer off: every internal command of the
 * allowlist, refusals (unknown and mutating 403, shell syntax 400 naming
 * the field, host commands 422), roles, audit rows, and no key of a real
 * interface or peer in any response. Host commands on real WireGuard:
 * tests/tunnels/console_system_test.ts.
 */
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { apiClient } from "../helpers/api_client.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { type Exec, executor } from "../helpers/console.ts";
import { startTestServer } from "../helpers/test_server.ts";

const cmd = (
  command: string,
  subcommand: string | null = null,
  rest: Record<string, unknown> = {},
) => ({
  command,
  subcommand,
  sub_subcommand: null,
  target: null,
  parameters: {},
  ...rest,
});

Deno.test("POST /cli/execute runs every internal command and never shows an interface or peer secret", async () => {
  await using t = await startTestServer();
  const cookie = await t.login();
  const api = apiClient(t.admin, { cookie });
  const exec = executor(t, cookie);
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  const peer =
    (await api.post(`/interfaces/${iface.id}/peers`, { name: "p", preshared_key: true })).body;
  assertEquals(peer.has_preshared_key, true);
  await t.services.dns.createZone("admin", {
    name: "example.com",
    admin_email: "hostmaster@example.com",
  });
  await t.services.dns.createRecord("admin", "example.com", {
    domain: "www.example.com",
    type: "A",
    value: "192.0.2.7",
    ttl: 300,
  });

  const runs: [Record<string, unknown>, (b: Exec["body"]) => void][] = [
    [
      cmd("interfaces", "list"),
      (b) => assertEquals(b.output.map((i: { name: string }) => i.name), ["wg1"]),
    ],
    [cmd("interfaces", "show", { target: "wg1" }), (b) => assertEquals(b.output.id, iface.id)],
    [
      cmd("peers", "list"),
      (b) => assertEquals(b.output.map((p: { id: string }) => p.id), [peer.id]),
    ],
    [
      cmd("peers", "list", { parameters: { interface: "wg1", status: "enabled", limit: 5 } }),
      (b) => assertEquals(b.output.length, 1),
    ],
    [
      cmd("peers", "show", { target: peer.id }),
      (b) => assertEquals(b.output.public_key, peer.public_key),
    ],
    [
      cmd("zones", "list"),
      (b) => assertEquals(b.output.map((z: { name: string }) => z.name), ["example.com"]),
    ],
    [
      cmd("zones", "show", { target: "Example.COM." }),
      (b) => assertEquals(b.output.name, "example.com"),
    ],
    [
      cmd("dns", "query", { target: "www.example.com", parameters: { type: "a" } }),
      (b) => {
        assertEquals([b.output.rcode, b.output.authoritative], ["NOERROR", true]);
        assertEquals(b.output.answers, [{
          name: "www.example.com",
          type: "A",
          ttl: 300,
          data: "192.0.2.7",
        }]);
      },
    ],
    [
      cmd("dns", "query", { target: "nope.example.com" }),
      (b) => assertEquals(b.output.rcode, "NXDOMAIN"),
    ],
    [
      cmd("reconcile", "plan"),
      (b) => assertEquals([b.output.driver, b.output.host_active], ["none", false]),
    ],
    [
      cmd("diagnostics"),
      (b) =>
        assertEquals(
          b.output.subsystems.map((x: { subsystem: string }) => x.subsystem).sort(),
          ["attestation", "backups", "database", "dns", "firewall", "routes", "tunnels"],
        ),
    ],
    [
      cmd("diagnostics", null, { target: "database" }),
      (b) => assertEquals(b.output.subsystem, "database"),
    ],
    [cmd("system", "version"), (b) => assertEquals(typeof b.output.version, "string")],
    [cmd("audit", "tail", { parameters: { limit: 3 } }), (b) => assertEquals(b.output.length, 3)],
  ];
  const texts: string[] = [];
  for (const [body, check] of runs) {
    const r = await exec(body);
    assertEquals(r.status, 200, `${JSON.stringify(body)}: ${r.text}`);
    assertEquals([r.body.kind, r.body.exit_code, r.body.command_line], ["internal", 0, null]);
    assert(typeof r.body.duration_ms === "number");
    check(r.body);
    texts.push(r.text);
  }
  const peerKeys = rawRow<{ private_key: string; preshared_key: string }>(
    t.store,
    "peers",
    ["private_key", "preshared_key"],
    { id: peer.id },
  )!;
  const ifKey = rawRow<{ private_key: string }>(t.store, "interfaces", ["private_key"], {
    id: iface.id,
  })!.private_key;
  for (const secret of [ifKey, peerKeys.private_key, peerKeys.preshared_key]) {
    assertEquals(secret.length, 44);
    for (const text of texts) assertEquals(text.includes(secret), false);
  }
  // Each run is audited with the command, not its output.
  const audit = await t.services.audit.list({
    event_type: "console.executed",
    limit: 100,
    offset: 0,
  });
  assertEquals(audit.total, runs.length);
  assertEquals(audit.records.map((r) => r.actor).every((a) => a === "admin"), true);
  assertEquals(
    audit.records.some((r) => r.message === `Ran "peers show ${peer.id}" (exit 0)`),
    true,
  );
});

Deno.test("POST /cli/execute refuses unknown commands (403), mutating ones (403, audited) and lists the allowed ones", async () => {
  await using t = await startTestServer();
  const exec = executor(t, await t.login());
  for (const body of [cmd("bash", "-c", { target: "id" }), cmd("peers", "dance"), cmd("cat")]) {
    const r = await exec(body);
    assertEquals(r.status, 403, r.text);
    assertStringIncludes(r.body.error, "not on the console's allowlist");
    assertStringIncludes(r.body.error, "wg show dump");
  }
  const api = apiClient(t.admin, { cookie: await t.login() });
  const iface = (await api.post("/interfaces", { name: "wg1", address_v4: "10.8.0.1/24" })).body;
  for (
    const body of [
      cmd("interfaces", "delete", { target: "wg1" }),
      cmd("reconcile", "apply"),
      cmd("wg", "set", { target: "wg1" }),
      { ...cmd("ip", "link"), sub_subcommand: "del", target: "wg1" },
      { ...cmd("nft", "flush"), sub_subcommand: "table" },
    ]
  ) {
    const r = await exec(body);
    assertEquals(r.status, 403, r.text);
    assertStringIncludes(r.body.error, "read-only");
    assertStringIncludes(r.body.error, "interfaces list");
  }
  assertEquals((await api.get(`/interfaces/${iface.id}`)).status, 200);
  assertEquals(
    (await t.services.audit.list({ event_type: "console.refused", limit: 10, offset: 0 })).total,
    5,
  );
  assertEquals(
    (await t.services.audit.list({ event_type: "console.executed", limit: 10, offset: 0 })).total,
    0,
  );
});

Deno.test("POST /cli/execute refuses shell syntax and traversal in target and parameters with 400 naming the field", async () => {
  await using t = await startTestServer();
  const exec = executor(t, await t.login());
  const probes = ["wg0;id", "wg0 && id", "`id`", "$(id)", "../../etc/passwd", "wg0\nid", "wg0|id"];
  for (const p of probes) {
    for (
      const body of [cmd("interfaces", "show", { target: p }), cmd("zones", "show", { target: p })]
    ) {
      const r = await exec(body);
      assertEquals(r.status, 400, `${JSON.stringify(p)}: ${r.text}`);
      assertStringIncludes(r.body.error, 'Field "target"');
    }
    const r = await exec(cmd("dns", "query", { target: "example.com", parameters: { type: p } }));
    assertEquals(r.status, 400, r.text);
    assertStringIncludes(r.body.error, 'Field "parameters.type"');
  }
  // Rule checks after the syntax checks: a target a command does not take, a bad id, a bad name.
  const cases: [Record<string, unknown>, string][] = [
    [cmd("interfaces", "list", { target: "wg1" }), "takes no target"],
    [cmd("peers", "show", { target: "not-a-uuid" }), "is not a UUID"],
    [cmd("peers", "show"), "needs a target"],
    [cmd("interfaces", "show", { target: "Wg-Upper" }), "is not an interface name"],
    [cmd("peers", "list", { parameters: { command: "rm" } }), "parameters"],
    [cmd("dns", "query", { target: "example.com", parameters: { type: "AXFR" } }), '"AXFR"'],
  ];
  for (const [body, words] of cases) {
    const r = await exec(body);
    assertEquals(r.status, 400, r.text);
    assertStringIncludes(r.body.error, words);
  }
  assertEquals(
    (await t.services.audit.list({ event_type: "console.executed", limit: 10, offset: 0 })).total,
    0,
  );
});

Deno.test("POST /cli/execute answers host commands with 422 while the host layer is off; viewers get 403", async () => {
  await using t = await startTestServer();
  const exec = executor(t, await t.login());
  for (
    const body of [
      { ...cmd("wg", "show"), sub_subcommand: "dump", target: "wg0" },
      { ...cmd("ip", "addr"), sub_subcommand: "show" },
      { ...cmd("ip", "route"), sub_subcommand: "show" },
      { ...cmd("ip", "link"), sub_subcommand: "show" },
      { ...cmd("nft", "list"), sub_subcommand: "table" },
    ]
  ) {
    const r = await exec(body);
    assertEquals(r.status, 422, r.text);
    assertStringIncludes(r.body.error, "host layer is off");
  }
  await t.addUser("vic", "viewer", "viewer-password-77");
  const viewer = executor(t, await t.login("vic", "viewer-password-77"));
  assertEquals((await viewer(cmd("interfaces", "list"))).status, 403);
  await t.addUser("olly", "operator", "operator-password-77");
  const operator = executor(t, await t.login("olly", "operator-password-77"));
  assertEquals((await operator(cmd("interfaces", "list"))).status, 200);
});
