/** Stored rows the services act on, or NotFoundError. */
import { NotFoundError } from "../errors.ts";
import type { InterfaceRepo, InterfaceRow } from "./interface_repo.ts";
import type { PeerRepo, PeerRow } from "./peer_repo.ts";

/** The interface `id`; NotFoundError (naming `field` when the id came from one) when absent. */
export async function requireInterface(
  repo: InterfaceRepo,
  id: string,
  field?: string,
): Promise<InterfaceRow> {
  const r = await repo.get(id);
  if (!r) throw new NotFoundError(`Interface "${id}" does not exist`, field);
  return r;
}

/** The peer `id`; NotFoundError when absent. */
export async function requirePeer(repo: PeerRepo, id: string): Promise<PeerRow> {
  const r = await repo.get(id);
  if (!r) throw new NotFoundError(`Peer "${id}" does not exist`);
  return r;
}
