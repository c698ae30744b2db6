/**
 * The row types and row mappings of the `peers` table, shared by its two
 * repositories (`peer_repo.ts`, `pg_peer_repo.ts`).
 */
export type PeerStatus = "enabled" | "disabled" | "revoked";

/** One stored peer, as the table holds it. */
export interface PeerRow {
  id: string;
  interface_id: string;
  name: string;
  public_key: string;
  private_key: string | null;
  preshared_key: string | null;
  address: string;
  allowed_ips: string | null;
  dns: string;
  keepalive: number | null;
  mtu: number | null;
  profile: string;
  status: PeerStatus;
  /**
   * Where the server dials this peer (host:port or [IPv6]:port): set only for
   * the provider peer of an upstream interface; absent or null for clients.
   */
  endpoint?: string | null;
  created_at: number;
  updated_at: number;
}

export type PeerSummary = Pick<PeerRow, "id" | "name" | "public_key" | "status">;
export type PeerIdentity = Pick<PeerRow, "id" | "name" | "public_key">;
export type PeerWithInterface = PeerRow & { interface_name: string };

/** What the host needs of an enabled peer (desired_state.ts). */
export type HostPeer = Pick<
  PeerRow,
  | "interface_id"
  | "public_key"
  | "preshared_key"
  | "address"
  | "allowed_ips"
  | "keepalive"
  | "endpoint"
>;

/** What a listing may be narrowed to. */
export interface PeerFilter {
  interface_id?: string;
  status?: PeerStatus;
  /** Case-insensitive substring of the peer name (ASCII case folding, SQLite LIKE). */
  search?: string;
  limit?: number;
  offset?: number;
  /**
   * Keyset: only peers sorting after this (interface name, peer name, id),
   * the listing's order.
   */
  after?: readonly [string, string, string];
}

/**
 * One peer of a listing as an array, in this order. Interface name and
 * address are not included: they repeat on every row, and each cell would be
 * a new JS string; the listing looks them up once per interface instead.
 * The two key flags are 1 or 0.
 */
export type PeerTuple = readonly [
  id: string,
  interface_id: string,
  name: string,
  public_key: string,
  address: string,
  allowed_ips: string | null,
  dns: string,
  keepalive: number | null,
  mtu: number | null,
  profile: string,
  status: PeerStatus,
  has_private_key: number,
  has_preshared_key: number,
  created_at: number,
  updated_at: number,
];

/** A peer with its interface's name and address and without its secrets. */
export type ListedPeer = Omit<PeerRow, "private_key" | "preshared_key"> & {
  interface_name: string;
  interface_address: string;
  has_private_key: boolean;
  has_preshared_key: boolean;
};

/** The fields a peer update writes. */
export type PeerChange = Pick<
  PeerRow,
  "name" | "profile" | "mtu" | "keepalive" | "allowed_ips" | "dns" | "preshared_key" | "address"
>;

/** `search` as a LIKE pattern matching it anywhere: the name is data, so LIKE's wildcards are escaped. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A listed peer as both engines return it: the key flags are 1 or 0. */
export type ListedRow = Omit<ListedPeer, "has_private_key" | "has_preshared_key"> & {
  has_private_key: number;
  has_preshared_key: number;
};

export function listed(r: ListedRow): ListedPeer {
  return {
    ...r,
    has_private_key: r.has_private_key === 1,
    has_preshared_key: r.has_preshared_key === 1,
  };
}
