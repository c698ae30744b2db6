import type { Migration } from "../store.ts";

/**
 * RP-initiated logout per provider (docs/sso.md, "Signing out"):
 * `logout_at_provider` 1 sends a single sign-on user who signs out on to the
 * provider's `end_session_endpoint` when its discovery document has one; 0
 * keeps the sign-out local. On by default, existing providers included.
 */
export const oidcLogout: Migration = {
  version: 28,
  name: "oidc-logout",
  sql: `
ALTER TABLE oidc_providers ADD COLUMN logout_at_provider INTEGER NOT NULL DEFAULT 1
  CHECK (logout_at_provider IN (0, 1));
`,
};
