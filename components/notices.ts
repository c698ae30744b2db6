/**
 * The one-line notices shown after a redirect (`?done=<what>`), page by
 * page. Each page has a fixed list, so no text from the query string reaches
 * the page; the keys are what the routes that act redirect with (a peer's
 * page shows `revoked` after its revoke page, `created` after the new-peer
 * page).
 */
import { z } from "zod";
import { DISABLE_WARNING } from "@/lib/dns/dnssec/dnssec_service.ts";

export const NOTICES = {
  tunnels: { deleted: "Interface deleted." },
  tunnel: {
    created: "Interface created.",
    updated: "Interface saved.",
    enabled: "Interface enabled.",
    disabled: "Interface disabled: its link is down, its peers are kept.",
    restarted: "Interface restarted from the stored state.",
    imported: "Upstream interface imported, applied to the host and reconciled.",
    imported_unverified:
      "Upstream interface imported, but the reconciliation after it did not verify: see Diagnostics.",
  },
  peers: { deleted: "Peer deleted." },
  peer: {
    created: "Peer created. Its configuration is ready to download.",
    updated: "Peer saved.",
    enabled: "Peer enabled.",
    disabled: "Peer disabled: it is off the host until enabled again.",
    revoked: "Peer revoked: its keys are erased and it can never connect again.",
  },
  zones: { deleted: "Zone deleted." },
  zone: {
    created: "Zone created.",
    updated: "Zone saved.",
    imported: "Zone file imported.",
    record_created: "Record added.",
    record_updated: "Record saved.",
    record_deleted: "Record deleted.",
    dnssec_enabled: "DNSSEC enabled: give the DS records below to the registrar.",
    dnssec_disabled: `DNSSEC disabled. ${DISABLE_WARNING}.`,
    dnssec_rotated:
      "ZSK rollover started: the new key is published now and signs after the DNSKEY TTL and the propagation delay; the old one leaves after the longest TTL and the delay.",
  },
  history: { reverted: "Change reverted: the revert is the newest change below." },
  networks: { deleted: "Network deleted." },
  sites: { deleted: "Site deleted: its key and secret no longer work." },
  site: { updated: "Site saved." },
  network: { created: "Network created." },
  routes: { created: "Route created.", deleted: "Route deleted." },
  firewall: {
    created: "Firewall rule created.",
    deleted: "Firewall rule deleted.",
    enabled: "Firewall rule enabled.",
    disabled: "Firewall rule disabled: it is out of the host's table, its place is kept.",
  },
  backups: {
    created: "Backup created.",
    deleted: "Backup deleted.",
    restored:
      "Backup restored. The state it replaced is kept as a safety backup (kind safety) in this list.",
  },
  users: {
    created: "User created.",
    role: "Role changed. It applies to the user's sessions and API tokens at once.",
    two_factor_reset:
      "Two-factor sign-in reset and the user's sessions ended. The password alone signs the user in until they enrol again.",
  },
  tokens: { revoked: "API token revoked." },
  apiKeys: { revoked: "DNS API key revoked." },
  reconcile: {
    applied: "Reconcile applied and verified: the host matches the stored state.",
    unverified:
      "Reconcile applied, but the host still differs from the stored state: the differences left are below.",
    nothing: "Nothing to apply: the host already matched the stored state.",
    host_off: "Nothing applied: the host layer is off.",
  },
  login: { password: "Password changed and every session ended: sign in with the new password." },
} as const;

/** The `done` query of a page whose notices are `messages`: only their keys are accepted. */
export function doneQuery<K extends string>(messages: Record<K, string>) {
  return z.enum(Object.keys(messages) as [K, ...K[]]).optional();
}

/** The notice for `done`, or null when there is none or it is not in the list. */
export function noticeFor(messages: Record<string, string>, done: string | undefined) {
  return done ? messages[done] ?? null : null;
}
