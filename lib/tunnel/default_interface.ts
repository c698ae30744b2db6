/**
 * The protected default interface: the spec has `wg0` exist on every
 * server, so start creates it when no interface of that name is stored
 * (PALISADE_DEFAULT_INTERFACE, on by default). It gets DEFAULT_ADDRESS and
 * the `wireguard.server_port` setting as its listen port (clients are told
 * that port), or the lowest free port from 51820 when that is unset or
 * taken. When the address is taken by an interface already stored, nothing
 * is created and the reason is logged: an existing deployment's addressing
 * is not changed behind its back.
 */
import { ConflictError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import type { InterfaceRepo } from "./interface_repo.ts";
import { type InterfaceService, PROTECTED_INTERFACE } from "./interface_service.ts";

export const DEFAULT_ADDRESS = "10.8.0.1/24";

/** Creates wg0 when absent; returns its id when it was created, null otherwise. */
export async function ensureDefaultInterface(
  interfaces: InterfaceService,
  repos: { interfaceRepo: Pick<InterfaceRepo, "all"> },
  settingsPort: number | null,
  log: Logger,
): Promise<string | null> {
  if ((await repos.interfaceRepo.all()).some((r) => r.name === PROTECTED_INTERFACE)) return null;
  const input = { name: PROTECTED_INTERFACE, address_v4: DEFAULT_ADDRESS };
  const create = (listen_port?: number) =>
    interfaces.create(listen_port === undefined ? input : { ...input, listen_port }, "system");
  try {
    const made = await create(settingsPort ?? undefined).catch((err) => {
      if (err instanceof ConflictError && err.code === "duplicate_listen_port") return create();
      throw err;
    });
    log.info("Default interface created", {
      name: made.name,
      address_v4: made.address_v4,
      listen_port: made.listen_port,
    });
    return made.id;
  } catch (err) {
    if (err instanceof ConflictError) {
      log.warn("Default interface not created: its address is in use", { error: err });
      return null;
    }
    // Stored but not applied (HostError): the start-up apply and diagnostics deal with the host.
    log.error("Default interface could not be applied to the host", { error: err });
    return null;
  }
}
