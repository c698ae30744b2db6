/**
 * Every schema migration, in version order. Each issue adds its own file with
 * a fixed version number: 1 foundation, 2 attestation, 3 tunnels, 4 DNS,
 * 5 attestation without the chain-length index, 6 attestation expiry buckets,
 * 7 networks, routes and firewall rules, 8 DNSSEC, 9 automatic
 * ZSK rotation, 10 peer endpoints (upstream import),
 * 11 attestation sites, 12 attestation tokens, 13 attestation signals, 14 the DNS
 * API's own login failures and the record paging indexes, 15 the DNS IXFR journal, 16 TSIG keys,
 * 17 an index of attestation signals by site, 18 scoped DNS API keys,
 * 19 two-factor sign-in, 20 webhooks, 21 peer names in DNS, 22 the history of DNS zone records,
 * 24 single sign-on with OpenID Connect.
 * Applied by `Store.open()`.
 */
import type { Migration } from "../store.ts";
import { foundation } from "./0001_foundation.ts";
import { attest } from "./0002_attest.ts";
import { tunnels } from "./0003_tunnels.ts";
import { dns } from "./0004_dns.ts";
import { attestChain } from "./0005_attest_chain.ts";
import { attestExpiryBucket } from "./0006_attest_expiry_bucket.ts";
import { networks } from "./0007_networks.ts";
import { dnssec } from "./0008_dnssec.ts";
import { dnssecRotation } from "./0009_dnssec_rotation.ts";
import { peerEndpoint } from "./0010_peer_endpoint.ts";
import { attestSites } from "./0011_attest_sites.ts";
import { attestTokens } from "./0012_attest_tokens.ts";
import { attestSignals } from "./0013_attest_signals.ts";
import { dnsLoginAndPaging } from "./0014_dns_login_and_paging.ts";
import { dnsJournal } from "./0015_dns_journal.ts";
import { tsigKeys } from "./0016_tsig_keys.ts";
import { attestSignalsSite } from "./0017_attest_signals_site.ts";
import { dnsApiKeys } from "./0018_dns_api_keys.ts";
import { twoFactor } from "./0019_two_factor.ts";
import { webhooks } from "./0020_webhooks.ts";
import { peerDns } from "./0021_peer_dns.ts";
import { dnsHistory } from "./0022_dns_history.ts";
import { passkeys } from "./0023_passkeys.ts";
import { oidc } from "./0024_oidc.ts";
import { peerLimits } from "./0025_peer_limits.ts";
import { tunnelHistory } from "./0026_tunnel_history.ts";
import { webhookRetries } from "./0027_webhook_retries.ts";
import { oidcLogout } from "./0028_oidc_logout.ts";

export const migrations: Migration[] = [
  foundation,
  attest,
  tunnels,
  dns,
  attestChain,
  attestExpiryBucket,
  networks,
  dnssec,
  dnssecRotation,
  peerEndpoint,
  attestSites,
  attestTokens,
  attestSignals,
  dnsLoginAndPaging,
  dnsJournal,
  tsigKeys,
  attestSignalsSite,
  dnsApiKeys,
  twoFactor,
  webhooks,
  peerDns,
  dnsHistory,
  passkeys,
  oidc,
  peerLimits,
  tunnelHistory,
  webhookRetries,
  oidcLogout,
];
