/**
 * The "none" host driver: the host layer is off. Desired state lives in the
 * store only; nothing is applied or read, and status, diagnostics and
 * reconcile say so instead of reporting drift that cannot be measured.
 */
import type { DesiredInterface, DesiredPeer, HostDriver, HostInfo, SyncResult } from "./driver.ts";
import type { DesiredFirewallRule, DesiredRoute } from "./net_state.ts";

export class NoneDriver implements HostDriver {
  readonly name = "none" as const;
  readonly active = false;

  constructor(readonly reason = "host layer is off (PALISADE_HOST_DRIVER=none)") {}

  info(): Promise<HostInfo> {
    return Promise.resolve({
      driver: "none",
      active: false,
      netns: null,
      wireguard: null,
      tools: {},
      detail: this.reason,
    });
  }

  read(): Promise<null> {
    return Promise.resolve(null);
  }

  sync(_desired: DesiredInterface): Promise<SyncResult> {
    return Promise.resolve({ created: false, interfaceFields: [], peersSet: 0, peersRemoved: 0 });
  }

  setPeers(_ifName: string, _upsert: DesiredPeer[], _remove: string[]): Promise<void> {
    return Promise.resolve();
  }

  setLink(_ifName: string, _up: boolean): Promise<void> {
    return Promise.resolve();
  }

  remove(_ifName: string): Promise<void> {
    return Promise.resolve();
  }

  readRoutes(): Promise<null> {
    return Promise.resolve(null);
  }

  setRoutes(_desired: DesiredRoute[]): Promise<void> {
    return Promise.resolve();
  }

  readFirewall(): Promise<null> {
    return Promise.resolve(null);
  }

  setFirewall(_rules: DesiredFirewallRule[]): Promise<void> {
    return Promise.resolve();
  }
}
