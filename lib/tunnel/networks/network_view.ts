/** A network as the API shows it, with its size and utilization. */
import { isoTime } from "../../clock.ts";
import { parseCidr } from "../ipv4.ts";
import type { ListedNetwork, NetworkOrigin } from "./network_repo.ts";
import { networkSize } from "./network_rules.ts";

export interface NetworkView {
  id: string;
  name: string;
  cidr: string;
  interface_id: string | null;
  interface_name: string | null;
  origin: NetworkOrigin;
  /** Usable host addresses: 2^(32-prefix) - 2. */
  size: number;
  /** The interface's own address and every peer address of that interface, whatever its status. */
  allocated: number;
  created_at: string;
  updated_at: string;
}

/** GET /networks/{id}/available */
export interface NetworkAvailable {
  network_id: string;
  cidr: string;
  size: number;
  allocated: number;
  /** Free host addresses, ascending. */
  addresses: string[];
  /** The last address of this page when more follow (the next page's `after`), else null. */
  next_after: string | null;
}

/** The view of a stored network. */
export function networkView(r: ListedNetwork): NetworkView {
  return {
    id: r.id,
    name: r.name,
    cidr: r.cidr,
    interface_id: r.interface_id,
    interface_name: r.interface_name,
    origin: r.origin,
    size: networkSize(parseCidr(r.cidr)!.prefix),
    // A revoked peer's row keeps its address, which no other peer may take, so every status counts.
    allocated: r.interface_id === null ? 0 : r.peer_count + 1,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}
