/**
 * An active host driver that changes nothing: it writes each call into a
 * log (in the order calls happen, beside whatever else the test logs) and
 * fails the methods it is told to, so tests can see what the services ask of
 * the host, in which order, and what happens when the host refuses.
 */
import { HostError } from "../../lib/errors.ts";
import type {
  DesiredInterface,
  DesiredPeer,
  HostDriver,
  HostInfo,
  LiveState,
  SyncResult,
} from "../../lib/host/driver.ts";
import type {
  DesiredFirewallRule,
  DesiredRoute,
  LiveFirewall,
  LiveRoute,
} from "../../lib/host/net_state.ts";

export class RecordingDriver implements HostDriver {
  readonly name = "linux" as const;
  readonly active = true;
  /** Every method fails while true. */
  fail = false;
  /** Methods (by name) that fail. */
  readonly failing = new Set<string>();
  /** The route and firewall lists each setRoutes/setFirewall was given. */
  readonly routes: DesiredRoute[][] = [];
  readonly firewall: DesiredFirewallRule[][] = [];

  /** `syncLabel` says how a sync is logged after "sync ": by default the name and peer count. */
  constructor(
    readonly log: string[],
    private readonly syncLabel = (d: DesiredInterface) => `${d.name} ${d.peers.length}`,
  ) {}

  info(): Promise<HostInfo> {
    return Promise.resolve({
      driver: "linux",
      active: true,
      netns: null,
      wireguard: null,
      tools: {},
      detail: "recording",
    });
  }
  read(): Promise<LiveState> {
    return Promise.resolve({ readAt: Date.now(), interfaces: new Map() });
  }
  async sync(desired: DesiredInterface): Promise<SyncResult> {
    await this.#step("sync", `sync ${this.syncLabel(desired)}`);
    return { created: true, interfaceFields: [], peersSet: desired.peers.length, peersRemoved: 0 };
  }
  setPeers(ifName: string, upsert: DesiredPeer[], remove: string[]): Promise<void> {
    return this.#step("setPeers", `setPeers ${ifName} +${upsert.length} -${remove.length}`);
  }
  setLink(_ifName: string, _up: boolean): Promise<void> {
    return Promise.resolve();
  }
  remove(ifName: string): Promise<void> {
    return this.#step("remove", `remove ${ifName}`);
  }
  readRoutes(): Promise<LiveRoute[]> {
    return Promise.resolve([]);
  }
  setRoutes(desired: DesiredRoute[]): Promise<void> {
    this.routes.push(structuredClone(desired));
    return this.#step("setRoutes", `setRoutes ${desired.length}`);
  }
  readFirewall(): Promise<LiveFirewall> {
    return Promise.resolve({ present: false, chains: [], rules: [] });
  }
  setFirewall(rules: DesiredFirewallRule[]): Promise<void> {
    this.firewall.push(structuredClone(rules));
    return this.#step("setFirewall", `setFirewall ${rules.length}`);
  }
  async #step(method: string, what: string): Promise<void> {
    // A turn of the event loop, as a real command takes.
    await new Promise((r) => setTimeout(r, 1));
    this.log.push(what);
    if (this.fail || this.failing.has(method)) throw new HostError(`${what} failed`);
  }
}
