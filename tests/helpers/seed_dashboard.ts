/**
 * Data for every dashboard page to show something: an interface with peers,
 * a deleted peer, a signed zone with records and an unsigned one, a network, a route, a
 * firewall rule, a backup, a second user, an API token, a DNS API key, and the audit
 * records all of that leaves.
 */
import type { TestServer } from "./test_server.ts";

/** The seeded ids by the path segment that names them (`peers` → a peer id), for `fillPattern`. */
export type SeededIds = Record<string, string>;

export async function seedDashboard(t: TestServer): Promise<SeededIds> {
  const { tunnels, dns, backups, settings, attestSites } = t.services;
  await settings.put({ key: "wireguard.server_host", value: "vpn.example.org" }, "test");
  const iface = await tunnels.interfaces.create(
    { name: "wg1", address_v4: "10.8.0.1/24" },
    "test",
  );
  const peers = await tunnels.peers.createMany(
    iface.id,
    ["alice-laptop", "bob-phone", "carol-desktop", "dave-tablet"].map((name) => ({ name })),
    "test",
  );
  await tunnels.peers.disable(peers[2].id, "test");
  // A deleted peer: the peers page lists it under "Recently deleted".
  await tunnels.peers.delete(peers[3].id, "test");
  // Peer limits: the peer page and the list show a usage bar and days left.
  await tunnels.limits.set(peers[0].id, {
    quota_bytes: 64 * 1024 * 1024,
    expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
  }, "test");
  await dns.createZone("test", { name: "example.org", admin_email: "hostmaster@example.org" });
  await dns.createZone("test", { name: "example.net", admin_email: "hostmaster@example.net" });
  const record = await dns.createRecord("test", "example.org", {
    domain: "www.example.org",
    type: "A",
    value: "192.0.2.1",
  });
  await dns.createRecord("test", "example.org", {
    domain: "example.org",
    type: "MX",
    value: "10 mail.example.org.",
  });
  await dns.setDnssec("test", "example.org", { enable: true });
  const [change] = (await dns.listHistory("example.org", { limit: 1 })).changes;
  const network = await tunnels.networks.create({ name: "lab", cidr: "10.20.0.0/24" }, "test");
  const route = await tunnels.routes.create(
    { destination: "10.50.0.0/24", gateway: "10.8.0.9" },
    "test",
  );
  const rule = await tunnels.firewall.create(
    { name: "ssh", protocol: "tcp", port: 22, action: "accept" },
    "test",
  );
  const changeOf = async (kind: "peer" | "firewall_rule" | "route", id: string) =>
    String((await tunnels.history.list(kind, id)).changes[0].id);
  const backup = await backups.create("test");
  await t.addUser("vera", "viewer");
  const vera = (await t.services.users.credentials("vera"))!.user;
  const raw = await t.createToken("ci-deploy", 30);
  const site = await attestSites.create(
    { name: "shop", origins: ["https://shop.example"], min_chain: 3, token_ttl_s: 300 },
    "test",
  );
  const apiKey = await t.services.dnsApiKeys.create("test", {
    name: "lego-example-org",
    scope: {
      zones: ["example.org"],
      types: ["TXT"],
      names: ["_acme-challenge.*"],
      access: "write",
    },
  });
  // A private address literal: allowed without PALISADE_WEBHOOK_ALLOW_LOCAL and needing no DNS.
  const hook = await t.services.webhooks.create("test", {
    url: "http://10.0.0.1/hook",
    events: ["zone.changed"],
  });
  const sso = await t.services.sso.providers.create("test", {
    id: "corp",
    display_name: "Corp SSO",
    issuer: "https://idp.example.org",
    client_id: "palisade",
    client_secret: "seeded-client-secret",
    scopes: "openid email profile",
    claim: "groups",
    role_map: "netops=operator",
    enabled: true,
  });
  return {
    tunnels: iface.id,
    peers: peers[0].id,
    name: "example.org",
    records: record.id,
    history: String(change.id),
    networks: network.id,
    routes: route.id,
    firewall: rule.id,
    backups: backup.id,
    users: vera.id,
    tokens: raw.split("_")[1],
    sites: site.id,
    "dns-api-keys": apiKey.id,
    webhooks: hook.id,
    "sso-providers": sso.id,
    peer_entry: await changeOf("peer", peers[0].id),
    rule_entry: await changeOf("firewall_rule", rule.id),
    route_entry: await changeOf("route", route.id),
  };
}
