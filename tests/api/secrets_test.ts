/**
 * Secrets stay secret (issue 19): known secrets are seeded — passwords, an
 * API token, the session cookie, the JWT signing secret, WireGuard private
 * and preshared keys, a secret setting, DNSSEC private keys, a TSIG key's secret — and then
 * every listing and page of both management listeners, every log line,
 * audit record and event frame, and the zone export are searched for them.
 * Only a peer's own client configuration (config, qr) carries that peer's
 * keys, which is its purpose.
 */
import { assert, assertEquals } from "../assert.ts";
import { collectFrames } from "../helpers/api_client.ts";
import { rawRow } from "../helpers/raw_sql.ts";
import { ADMIN, call, startTestServer } from "../helpers/test_server.ts";
import { createLogger } from "../../lib/log/log.ts";

Deno.test("no secret appears in any listing, page, log line, audit record, event or export", async () => {
  const logged: string[] = [];
  await using t = await startTestServer({ log: createLogger("debug", (l) => logged.push(l)) });
  await using frames = await collectFrames(t.admin, { cookie: await t.login() });
  const cookie = await t.login();
  const token = await t.createToken("secrets", 1);
  const A = { authorization: `Bearer ${token}` };
  await t.addUser("vera", "viewer", "vera-secret-password-9");
  await call(`${t.admin}/api/v1/system/settings`, {
    method: "PUT",
    headers: A,
    json: { key: "wireguard.server_host", value: "hidden-host.example.org", is_secret: true },
  });
  const iface = (await call(`${t.admin}/api/v1/interfaces`, {
    method: "POST",
    headers: A,
    json: { name: "wg1", address_v4: "10.8.0.1/24", listen_port: 51820 },
  })).body.id as string;
  const peer = (await call(`${t.admin}/api/v1/interfaces/${iface}/peers`, {
    method: "POST",
    headers: A,
    json: { name: "laptop" },
  })).body.id as string;
  const jwt = (await call(`${t.dnsApi}/api/v1/auth/login`, { method: "POST", json: ADMIN })).body
    .token as string;
  const D = { authorization: `Bearer ${jwt}` };
  await call(`${t.dnsApi}/api/v1/zones`, {
    method: "POST",
    headers: D,
    json: { name: "example.com", admin_email: "h@example.com" },
  });
  // DNSSEC keys of algorithm 8: their private keys (PKCS#8) must stay in the store.
  const dnssecOn = await (await fetch(`${t.dnsApi}/api/v1/zones/example.com/dnssec`, {
    method: "POST",
    headers: { ...D, "content-type": "application/json" },
    body: JSON.stringify({ enable: true, algorithm: "RSASHA256" }),
  })).text();
  // A TSIG key: its secret is shown in the creation's answer and nowhere else.
  const tsigSecret = (await call(`${t.dnsApi}/api/v1/tsig-keys`, {
    method: "POST",
    headers: D,
    json: { name: "xfr.example.com", zones: ["example.com"] },
  })).body.secret as string;
  // A failed login with a password that is only almost right must not be logged either.
  await call(`${t.admin}/api/v1/auth/login`, {
    method: "POST",
    json: { username: "admin", password: `${ADMIN.password}!` },
  });

  const store = t.store;
  const peerKeys = rawRow<{ private_key: string; preshared_key: string }>(
    store,
    "peers",
    ["private_key", "preshared_key"],
    { id: peer },
  )!;
  const secrets: Record<string, string> = {
    "admin password": ADMIN.password,
    "viewer password": "vera-secret-password-9",
    "API token": token,
    // svc_<uuid>_<random>: the random part may itself hold "_" (base64url).
    "API token secret part": token.slice("svc_".length + 36 + 1),
    "session cookie": cookie.split("=")[1],
    "DNS API JWT": jwt,
    "interface private key": rawRow<{ private_key: string }>(store, "interfaces", ["private_key"], {
      id: iface,
    })!.private_key,
    "peer private key": peerKeys.private_key,
    "peer preshared key": peerKeys.preshared_key,
    "secret setting": "hidden-host.example.org",
    "TSIG key secret": tsigSecret,
  };
  for (const key_type of ["KSK", "ZSK"]) {
    const { private_key } = rawRow<{ private_key: string }>(store, "dnssec_keys", ["private_key"], {
      zone_name: "example.com",
      key_type,
    })!;
    secrets[`DNSSEC ${key_type} private key`] = private_key;
    // A piece of it too, should a response wrap or re-encode the key in part.
    secrets[`DNSSEC ${key_type} private key, part`] = private_key.slice(200, 240);
  }
  for (const { value } of store.all<{ value: string }>("SELECT value FROM meta")) {
    secrets[`meta value ${value.slice(0, 4)}…`] = value;
  }

  // Every GET of both management listeners, with real ids where a route takes one.
  const ids: Record<string, string> = { id: peer, name: "example.com", subsystem: "database" };
  const texts: [string, string][] = [];
  const peerOwn = /\/peers\/:id\/(config|qr)$/;
  for (
    const [listener, base, headers] of [
      ["admin", t.admin, { ...A, cookie }],
      ["dnsApi", t.dnsApi, D],
    ] as const
  ) {
    for (const route of t.server.routes[listener]) {
      if (!route.module.meta?.GET || route.pattern.includes("{") || route.pattern.endsWith("/ws")) {
        continue;
      }
      const path = route.pattern.replace(/:(\w+)/g, (_, n) => ids[n] ?? "x");
      const query = peerOwn.test(route.pattern) ? "?endpoint=vpn.example.org" : "";
      const res = await fetch(`${base}${path}${query}`, { headers });
      texts.push([`${listener} GET ${path}`, await res.text()]);
    }
  }
  texts.push([
    "interfaces/:id",
    await (await fetch(`${t.admin}/api/v1/interfaces/${iface}`, { headers: A })).text(),
  ]);
  texts.push(["dnsApi POST /zones/example.com/dnssec", dnssecOn]);
  assert(texts.some(([w]) => w === "dnsApi GET /api/v1/zones/example.com/dnssec"), "DNSSEC status");
  texts.push([
    "audit",
    JSON.stringify((await call(`${t.admin}/api/v1/audit?limit=200`, { headers: A })).body),
  ]);
  await frames.waitFor((f) => f.type === "PeerChanged");
  texts.push(["events", JSON.stringify(frames.frames)]);
  texts.push(["log", logged.join("\n")]);
  assert(texts.length > 30, `only ${texts.length} texts searched`);
  console.log(`secrets: searched ${texts.length} texts, ${logged.length} log lines`);
  assert(logged.length > 0, "the log recorded something");

  const found: string[] = [];
  for (const [where, text] of texts) {
    for (const [what, secret] of Object.entries(secrets)) {
      const own = peerOwn.test(where.replace(peer, ":id")) && what.startsWith("peer ");
      if (secret && text.includes(secret) && !own) found.push(`${what} in ${where}`);
    }
  }
  assertEquals(found, []);
  // The peer's own configuration does carry its key: the search would have seen a leak.
  const config = texts.find(([w]) => w.endsWith(`/peers/${peer}/config`))![1];
  assert(config.includes(peerKeys.private_key), "the client configuration carries the peer's key");
});
