/**
 * The dashboard's budgets: with 1,000 peers stored the peers page renders on
 * the server in under 100 ms, and no page ships more than 40 KiB of gzipped
 * JavaScript. Both tests print their figures.
 */
import { assert, assertEquals } from "../assert.ts";
import { getPage, pageJavaScript, seedPeers } from "../helpers/dashboard.ts";
import { startTestServer } from "../helpers/test_server.ts";

const PEERS = 1000;
const SSR_BUDGET_MS = 100;
const JS_BUDGET_BYTES = 40 * 1024;

Deno.test("the peers page renders 1,000 peers on the server in under 100 ms", async () => {
  await using t = await startTestServer();
  await seedPeers(t, PEERS);
  const cookie = await t.login();
  // The first renders compile the code paths; an administrator's later visits are what counts.
  for (let i = 0; i < 3; i++) await getPage(t, "/peers", cookie);
  const times: number[] = [];
  let html = "";
  for (let i = 0; i < 9; i++) {
    const started = performance.now();
    const res = await fetch(`${t.admin}/peers`, { headers: { cookie } });
    html = await res.text();
    times.push(performance.now() - started);
    assertEquals(res.status, 200);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  assertEquals(html.match(/<tr hidden=|<tr data-peer-id=/g)?.length, PEERS, "every peer is a row");
  console.log(
    `peers page with ${PEERS} peers: server render median ${median.toFixed(1)} ms ` +
      `(min ${times[0].toFixed(1)}, max ${times.at(-1)!.toFixed(1)}), ` +
      `${(html.length / 1024).toFixed(0)} KiB of HTML`,
  );
  assert(median < SSR_BUDGET_MS, `median ${median.toFixed(1)} ms is over ${SSR_BUDGET_MS} ms`);
});

Deno.test("no dashboard page ships more than 40 KiB of gzipped JavaScript", async () => {
  await using t = await startTestServer();
  const { interfaceId, peerIds } = await seedPeers(t, 3);
  t.services.dns.createZone("test", { name: "example.org", admin_email: "h@example.org" });
  const record = t.services.dns.listRecords("example.org").records[0];
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
    "/users",
    "/audit",
    "/attestation",
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
