import type { Migration } from "../store.ts";

/**
 * The endpoint of a peer the server dials (docs/tunnels.md, "Upstream
 * import"): the provider peer of an upstream interface, as host:port or
 * [IPv6]:port. NULL for every other peer: clients dial in and roam, so the
 * server never pins where they are.
 */
export const peerEndpoint: Migration = {
  version: 10,
  name: "peer-endpoint",
  sql: `
ALTER TABLE peers ADD COLUMN endpoint TEXT;
`,
};
