import type { Role } from "@/lib/auth/roles.ts";

/**
 * Dashboard sections, in navigation order; `path` prefixes mark the current
 * one. `role` hides a section from users below it (the server refuses them anyway).
 */
export const NAV: readonly { path: string; label: string; role?: Role }[] = [
  { path: "/", label: "Overview" },
  { path: "/tunnels", label: "Tunnels" },
  { path: "/peers", label: "Peers" },
  { path: "/networks", label: "Networks" },
  { path: "/routes", label: "Routes" },
  { path: "/firewall", label: "Firewall" },
  { path: "/zones", label: "Zones" },
  { path: "/dns-api-keys", label: "DNS API keys", role: "administrator" },
  { path: "/webhooks", label: "Webhooks", role: "administrator" },
  { path: "/users", label: "Users", role: "administrator" },
  { path: "/sso-providers", label: "Single sign-on", role: "administrator" },
  { path: "/backups", label: "Backups", role: "administrator" },
  { path: "/audit", label: "Audit" },
  { path: "/attestation", label: "Attestation" },
  { path: "/diagnostics", label: "Diagnostics" },
  { path: "/reconcile", label: "Reconcile" },
  { path: "/console", label: "Console", role: "operator" },
  { path: "/settings", label: "Settings" },
  { path: "/tokens", label: "API tokens" },
  { path: "/account/password", label: "Password" },
  { path: "/account/security", label: "Security" },
];

/** True when `current` belongs to the section at `path`. */
export function isCurrent(path: string, current: string): boolean {
  return path === "/" ? current === "/" : current === path || current.startsWith(path + "/");
}
