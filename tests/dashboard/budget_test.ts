/**
 * The dashboard's budgets, as counts that a busy machine cannot change: the
 * peers page runs the same SQL statements for 1,000 rows as for 10 (no query
 * per row), and no page ships more than 40 KiB of gzipped JavaScript. The
 * render time of 1,000 peers is a benchmark (`deno task bench:dashboard`).
 */
import { assert, assertEquals } from "../assert.ts";
import { getPage, pageJavaScript, seedPeers } from "../helpers/dashboard.ts";
import { traceSql } from "../helpers/sql_trace.ts";
import { startTestServer } from "../helpers/test_server.ts";

const PEERS = 1000;
const JS_BUDGET_BYTES = 40 * 1024;

Deno.test("the peers page renders 1,000 peers with the same SQL statements as 10", async () => {
  await using t = await startTestServer();
  const sql = traceSql(t.store);
  await seedPeers(t, PEERS);
  const cookie = await t.login();
  const render = async (path: string) => {
    sql.take();
    const page = await getPage(t, path, cookie);
    assertEquals(page.status, 200, path);
    // Reads only: a session's last-seen write depends on the clock, not on the page.
    const reads = sql.take().filter((s) => /^(SELECT|WITH)\b/.test(s));
    return { rows: page.html.match(/<tr hidden=|<tr data-peer-id=/g)?.length ?? 0, reads };
  };
  const ten = await render("/peers?limit=10");
  const all = await render("/peers");
  assertEquals([ten.rows, all.rows], [10, PEERS], "rows rendered");
  assert(all.reads.some((s) => /\bFROM peers\b/.test(s)), "the trace saw the peers query");
  assertEquals(all.reads, ten.reads);
});

Deno.test("no dashboard page ships more than 40 KiB of gzipped JavaScript", async () => {
  await using t = await startTestServer();
  const { interfaceId, peerIds } = await seedPeers(t, 3);
  await t.services.dns.createZone("test", { name: "example.org", admin_email: "h@example.org" });
  const record = (await t.services.dns.listRecords("example.org")).records[0];
  await t.services.dns.createZone("test", { name: "signed.org", admin_email: "h@signed.org" });
  await t.services.dns.setDnssec("test", "signed.org", { enable: true });
  const { tunnels } = t.services;
  const network = (await tunnels.networks.list())[0];
  const route = await tunnels.routes.create(
    { destination: "10.50.0.0/24", gateway: "10.20.0.9" },
    "test",
  );
  const rule = await tunnels.firewall.create({ name: "any", protocol: "any", action: "drop" }, "t");
  const cookie = await t.login();
  const pages = [
    "/login",
    "/",
    "/tunnels",
    `/tunnels/${interfaceId}`,
    `/tunnels/${interfaceId}/delete`,
    "/peers",
    "/peers/new",
    `/peers/${peerIds[0]}`,
    `/peers/${peerIds[0]}/delete`,
    `/peers/${peerIds[0]}/revoke`,
    "/zones",
    "/zones/example.org",
    "/zones/example.org/delete",
    `/zones/example.org/records/${record.id}`,
    "/zones/signed.org",
    "/zones/signed.org/dnssec/disable",
    "/networks",
    `/networks/${network.id}`,
    `/networks/${network.id}/delete`,
    "/routes",
    `/routes/${route.id}/delete`,
    "/firewall",
    `/firewall/${rule.id}/delete`,
    "/users",
    "/audit",
    "/attestation",
    "/diagnostics",
    "/reconcile",
    "/reconcile/apply",
    "/console",
    "/settings",
  ];
  const lines: string[] = [];
  for (const path of pages) {
    const js = await pageJavaScript(t, path, path === "/login" ? "" : cookie);
    lines.push(
      `  ${path.padEnd(48)} ${(js.gzipBytes / 1024).toFixed(1).padStart(5)} KiB ${
        js.scripts.join(" ") || "(no script)"
      }`,
    );
    assert(js.gzipBytes <= JS_BUDGET_BYTES, `${path} ships ${js.gzipBytes} gzipped bytes`);
  }
  console.log(`gzipped JavaScript per page (budget 40 KiB):\n${lines.join("\n")}`);
});
