/**
 * The zone page's DNSSEC panel without a browser: enabling from the form
 * signs the zone and the page shows the keys and the DS records the DNS API
 * reports; refusals sit next to `algorithm` and `key_size`; disabling goes
 * through its confirmation page; a viewer sees the panel and no control, and
 * the server refuses the viewer's POSTs.
 */
import type { KeyState } from "../../lib/dns/dnssec/key_repo.ts";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { assert, assertEquals, assertStringIncludes } from "../assert.ts";
import { fieldError, getPage, postForm, rowText } from "../helpers/dashboard.ts";
import { dnsApi } from "../helpers/dns_api.ts";
import { startTestServer, type TestServer } from "../helpers/test_server.ts";
import { DnssecPanel } from "../../components/zones/dnssec_panel.tsx";

const ZONE = "example.org";
const PAGE = `/zones/${ZONE}`;

interface ApiKey {
  id: string;
  algorithm: string;
  key_type: string;
  bits: number;
  key_tag: number;
}
interface ApiDs {
  key_tag: string;
  algorithm: string;
  digest_type: string;
  digest: string;
}

async function withZone() {
  const t = await startTestServer();
  await t.services.dns.createZone("test", { name: ZONE, admin_email: `hostmaster@${ZONE}` });
  return t;
}

/** The zone's DNSSEC status as the DNS management API reports it. */
async function apiStatus(t: TestServer) {
  const api = await dnsApi(t);
  const res = await api.get(`/zones/${ZONE}/dnssec`);
  assertEquals(res.status, 200);
  return res.body as { enabled: boolean; keys: ApiKey[]; ds_records: ApiDs[] };
}

/** The panel's state word ("Signed" or "Unsigned"). */
function panelState(html: string): string | null {
  return /<span data-dnssec-state[^>]*>\s*<span class="badge[^"]*">([^<]*)</.exec(html)?.[1] ??
    null;
}

/** The lines of the panel's DS box. */
function dsLines(html: string): string[] {
  const box = /<pre id="dnssec-ds-lines"[^>]*>([^<]*)<\/pre>/.exec(html)?.[1] ?? "";
  return box.split("\n").filter(Boolean);
}

const hasEnableForm = (html: string) => html.includes('name="_action" value="dnssec"');

Deno.test("zone page: DNSSEC enabled from the form shows Signed, the keys and DS lines of the API's status", async () => {
  await using t = await withZone();
  const cookie = await t.login();
  let html = (await getPage(t, PAGE, cookie)).html;
  assertEquals(panelState(html), "Unsigned");
  assert(hasEnableForm(html), "an operator gets the enable form");
  assertStringIncludes(html, '<option value="ECDSAP256SHA256" selected>');

  // A key size typed for ED25519 is not used: only RSA takes one.
  const res = await postForm(
    t,
    PAGE,
    { _action: "dnssec", algorithm: "ED25519", key_size: "1024" },
    cookie,
  );
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), `${PAGE}?done=dnssec_enabled`);

  const status = await apiStatus(t);
  assertEquals(status.enabled, true);
  assertEquals(status.keys.map((k) => [k.key_type, k.algorithm, k.bits]), [
    ["KSK", "ED25519", 256],
    ["ZSK", "ED25519", 256],
  ]);
  html = (await getPage(t, `${PAGE}?done=dnssec_enabled`, cookie)).html;
  assertEquals(panelState(html), "Signed");
  assertStringIncludes(html, "DNSSEC enabled: give the DS records below to the registrar.");
  assert(!hasEnableForm(html), "no enable form once signed");
  for (const k of status.keys) {
    assertStringIncludes(
      rowText(html, "data-key-id", k.id) ?? "",
      `${k.key_type} ED25519 256 ${k.key_tag} active`,
    );
  }
  assertStringIncludes(html, ">State</th>");
  // Digest types 2 and 4 of the KSK, as master-file lines.
  const ksk = status.keys.find((k) => k.key_type === "KSK")!;
  assertEquals(status.ds_records.map((d) => [d.key_tag, d.digest_type]), [
    [String(ksk.key_tag), "2"],
    [String(ksk.key_tag), "4"],
  ]);
  assertEquals(
    dsLines(html),
    status.ds_records.map((d) =>
      `${ZONE}. IN DS ${d.key_tag} ${d.algorithm} ${d.digest_type} ${d.digest}`
    ),
  );
  assertStringIncludes(html, `href="${PAGE}/dnssec/disable"`);
});

Deno.test("zone page: an RSA key size out of range shows next to key_size, an unknown algorithm next to algorithm; RSA takes the size given", async () => {
  await using t = await withZone();
  const cookie = await t.login();
  let res = await postForm(
    t,
    PAGE,
    { _action: "dnssec", algorithm: "RSASHA256", key_size: "1024" },
    cookie,
  );
  assertEquals(res.status, 422);
  let html = await res.text();
  assertStringIncludes(
    fieldError(html, "ds-key_size") ?? "",
    'Key size "1024" does not fit RSASHA256: use 2048 to 4096 bits',
  );
  assertStringIncludes(html, 'value="1024"', "typed values are kept");
  assertStringIncludes(html, '<option value="RSASHA256" selected>');

  res = await postForm(
    t,
    PAGE,
    { _action: "dnssec", algorithm: "RSASHA256", key_size: "big" },
    cookie,
  );
  assertEquals(res.status, 400);
  assertEquals(fieldError(await res.text(), "ds-key_size"), 'Enter a whole number, not "big"');

  res = await postForm(t, PAGE, { _action: "dnssec", algorithm: "DSA", key_size: "" }, cookie);
  assertEquals(res.status, 422);
  html = await res.text();
  assertStringIncludes(fieldError(html, "ds-algorithm") ?? "", 'Algorithm "DSA" is not supported');
  assertEquals(panelState(html), "Unsigned");
  assertEquals((await apiStatus(t)).enabled, false);

  res = await postForm(
    t,
    PAGE,
    { _action: "dnssec", algorithm: "RSASHA256", key_size: "3072" },
    cookie,
  );
  assertEquals(res.status, 303);
  assertEquals((await apiStatus(t)).keys.map((k) => [k.algorithm, k.bits]), [
    ["RSASHA256", 3072],
    ["RSASHA256", 3072],
  ]);
});

Deno.test("DNSSEC is disabled through its confirmation page, which warns to remove the DS first; enabling again offers the kept keys", async () => {
  await using t = await withZone();
  const cookie = await t.login();
  await t.services.dns.setDnssec("test", ZONE, { enable: true, algorithm: "ED25519" });
  const before = await apiStatus(t);

  const ask = await getPage(t, `${PAGE}/dnssec/disable`, cookie);
  assertEquals(ask.status, 200);
  assertStringIncludes(ask.html, "Remove the zone's DS records at the registrar first");
  assertStringIncludes(ask.html, "treat the unsigned zone as bogus");
  const ds = before.ds_records[0];
  assertStringIncludes(
    ask.html,
    `${ZONE}. IN DS ${ds.key_tag} ${ds.algorithm} ${ds.digest_type} ${ds.digest}`,
  );
  assertEquals((await apiStatus(t)).enabled, true, "asking changes nothing");

  const res = await postForm(t, `${PAGE}/dnssec/disable`, {}, cookie);
  assertEquals(res.status, 303);
  assertEquals(res.headers.get("location"), `${PAGE}?done=dnssec_disabled`);
  assertEquals((await apiStatus(t)).enabled, false);

  const html = (await getPage(t, `${PAGE}?done=dnssec_disabled`, cookie)).html;
  assertEquals(panelState(html), "Unsigned");
  assertStringIncludes(html, "DNSSEC disabled. The zone is now served unsigned: remove its DS");
  // The kept keys' algorithm is the form's choice, so enabling again reuses them.
  assertStringIncludes(html, '<option value="ED25519" selected>');
  assertStringIncludes(html, "The zone's ED25519 keys are kept");
  const again = await postForm(t, PAGE, { _action: "dnssec", algorithm: "ED25519" }, cookie);
  assertEquals(again.status, 303);
  assertEquals((await apiStatus(t)).keys.map((k) => k.key_tag), before.keys.map((k) => k.key_tag));
});

Deno.test("a viewer sees the DNSSEC panel read-only and is refused 403 on its POSTs", async () => {
  await using t = await withZone();
  await t.services.dns.createZone("test", { name: "signed.org", admin_email: "h@signed.org" });
  await t.services.dns.setDnssec("test", "signed.org", { enable: true });
  await t.addUser("vera", "viewer");
  const cookie = await t.login("vera", "vera-password-123");

  let html = (await getPage(t, PAGE, cookie)).html;
  assertEquals(panelState(html), "Unsigned");
  assert(!hasEnableForm(html), "no enable form for a viewer");
  html = (await getPage(t, "/zones/signed.org", cookie)).html;
  assertEquals(panelState(html), "Signed");
  assertEquals(dsLines(html).length, 2, "the DS records are shown");
  assert(!html.includes("/dnssec/disable"), "no link to the disable page");

  let res = await postForm(t, PAGE, { _action: "dnssec", algorithm: "ED25519" }, cookie);
  assertEquals(res.status, 403);
  assertStringIncludes(await res.text(), "This action needs the &quot;operator&quot; role");
  res = await postForm(t, "/zones/signed.org/dnssec/disable", {}, cookie);
  assertEquals(res.status, 403);
  assertEquals((await getPage(t, "/zones/signed.org/dnssec/disable", cookie)).status, 403);
  assertEquals((await t.services.dns.dnssecStatus(ZONE)).enabled, false);
  assertEquals((await t.services.dns.dnssecStatus("signed.org")).enabled, true);
});

Deno.test("the keys table shows each key's state (key rollover)", () => {
  const key = (id: string, key_type: "KSK" | "ZSK", key_tag: number, state: KeyState) => ({
    id,
    algorithm: "ECDSAP256SHA256",
    key_type,
    bits: 256,
    created_at: "2026-01-01T10:00:00.000Z",
    expires_at: key_type === "ZSK" && state === "active" ? "2026-02-01T10:00:00.000Z" : null,
    key_tag,
    flags: key_type === "KSK" ? 257 : 256,
    public_key: "AAAA",
    state,
    publish_at: "2026-01-01T10:00:00.000Z",
    activate_at: state === "published" ? "2026-01-02T10:00:00.000Z" : "2026-01-01T10:00:00.000Z",
    retire_at: null,
    remove_at: null,
  });
  const html = renderToString(h(DnssecPanel, {
    zone: ZONE,
    status: {
      enabled: true,
      keys: [
        key("k1", "KSK", 1001, "active"),
        key("k2", "ZSK", 1002, "active"),
        key("k3", "ZSK", 1003, "published"),
      ],
      keys_total: 3,
      keys_next_cursor: null,
      ds_records: [],
      rollover: null,
      zsk_rotation_days: null,
    },
    canEdit: false,
    form: { values: {}, errors: {} },
  }));
  assertStringIncludes(html, ">State</th>");
  assertStringIncludes(
    rowText(html, "data-key-id", "k3") ?? "",
    "ZSK ECDSAP256SHA256 256 1003 published",
  );
  assertStringIncludes(
    rowText(html, "data-key-id", "k2") ?? "",
    "1002 active 2026-01-01 10:00:00 UTC 2026-02-01 10:00:00 UTC",
  );
});
