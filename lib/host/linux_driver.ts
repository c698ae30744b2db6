/**
 * The linux host driver: iproute2 for links and addresses, wireguard-tools
 * for keys and peers, the kernel module when it exists and wireguard-go
 * otherwise. Optionally acts inside one network namespace.
 *
 * Userspace devices: wireguard-go is left to daemonize, as wg-quick does, so a
 * device and its sessions outlive a Palisade restart; Palisade stops it by
 * deleting the link (`ip link del`), on which wireguard-go exits and removes
 * its UAPI socket /var/run/wireguard/<if>.sock. That directory is shared by
 * all namespaces, so interface names must be unique across namespaces.
 */
import { HostError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import { silentLogger } from "../log/log.ts";
import { command, type CommandRunner } from "./command.ts";
import { diffInterface } from "./diff.ts";
import type {
  DesiredInterface,
  DesiredPeer,
  HostDriver,
  HostInfo,
  LiveInterface,
  LiveState,
  SyncResult,
} from "./driver.ts";
import { readLinuxRoutes, type RouteScope, setLinuxRoutes } from "./linux_routes.ts";
import type { DesiredFirewallRule, DesiredRoute, LiveFirewall, LiveRoute } from "./net_state.ts";
import { readNftTable, replaceNftTable } from "./nft_ruleset.ts";
import { secretDir } from "./secret_dir.ts";
import { findTools, kernelModuleLoaded } from "./tools.ts";
import { wgDump } from "./wg_dump.ts";

export interface LinuxDriverOptions {
  /** Network namespace to act in (`ip netns exec <netns> …`); the current one when absent. */
  netns?: string;
  logger?: Logger;
  /** "auto" tries the kernel module first and falls back to wireguard-go. */
  wireguard?: "auto" | "kernel" | "userspace";
  /** Directory of wireguard-go's UAPI sockets. */
  socketDir?: string;
  /** Routing table of Palisade's routes (default 254, main). */
  routeTable?: number;
  /** Route protocol tag marking Palisade's routes (default 97). */
  routeProtocol?: number;
  /** Name of Palisade's nftables table in family inet (default "palisade"). */
  nftTable?: string;
}

const ZERO_KEY = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
/** Keeps `wg set … remove` argv far below ARG_MAX. */
const REMOVE_CHUNK = 2000;

function peerSection(p: DesiredPeer): string {
  return [
    "[Peer]",
    `PublicKey = ${p.publicKey}`,
    // An all-zero key clears a preshared key; writing it always keeps this a full replace.
    `PresharedKey = ${p.presharedKey ?? ZERO_KEY}`,
    `AllowedIPs = ${p.allowedIps.join(", ")}`,
    `PersistentKeepalive = ${p.keepalive ?? 0}`,
    // Only a dialled peer has one; a roaming client's learnt endpoint is left alone.
    ...(p.endpoint ? [`Endpoint = ${p.endpoint}`] : []),
    "",
  ].join("\n");
}

export class LinuxDriver implements HostDriver {
  readonly name = "linux" as const;
  readonly active = true;
  readonly netns: string | null;
  #run: CommandRunner;
  #log: Logger;
  #mode: "kernel" | "userspace" | null;
  #socketDir: string;
  #routes: RouteScope;
  #nftTable: string;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(opts: LinuxDriverOptions = {}) {
    this.netns = opts.netns ?? null;
    this.#run = command(opts.netns);
    this.#log = (opts.logger ?? silentLogger).child({ component: "host.linux" });
    this.#mode = opts.wireguard === "kernel" || opts.wireguard === "userspace"
      ? opts.wireguard
      : null;
    this.#socketDir = opts.socketDir ?? "/var/run/wireguard";
    this.#routes = { table: opts.routeTable ?? 254, protocol: opts.routeProtocol ?? 97 };
    this.#nftTable = opts.nftTable ?? "palisade";
  }

  /** Runs host mutations one at a time so two callers never interleave commands on a device. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => {});
    return next;
  }

  info(): Promise<HostInfo> {
    const tools = findTools(["ip", "wg", "wireguard-go", "nft"]);
    const kmod = kernelModuleLoaded();
    return Promise.resolve({
      driver: "linux",
      active: true,
      netns: this.netns,
      wireguard: this.#mode ?? (kmod ? "kernel" : tools["wireguard-go"] ? "userspace" : null),
      tools: { ...tools, kernel_module: kmod },
      detail: `Linux driver${this.netns ? ` in namespace "${this.netns}"` : ""}`,
    });
  }

  async read(): Promise<LiveState> {
    const [ip, wg] = await Promise.all([
      this.#run("ip", ["-j", "-s", "addr", "show"]),
      // A stale socket of a dead wireguard-go makes wg exit non-zero while still
      // dumping every healthy device, so the output is used either way.
      this.#run("wg", ["show", "all", "dump"], { allowFail: true }),
    ]);
    if (wg.code !== 0 && !wg.stdout.trim() && !/Unable to access/.test(wg.stderr)) {
      throw new HostError(`Cannot read WireGuard state: ${wg.stderr.trim().split("\n")[0]}`);
    }
    return wgDump(wg.stdout, ip.stdout, Date.now());
  }

  sync(desired: DesiredInterface, live?: LiveInterface | null): Promise<SyncResult> {
    return this.#serial(async () => {
      if (live === undefined) live = (await this.read()).interfaces.get(desired.name) ?? null;
      let created = false;
      if (!live) {
        await this.#create(desired.name);
        created = true;
        live = {
          name: desired.name,
          publicKey: null,
          listenPort: null,
          mtu: null,
          up: false,
          addressesV4: [],
          rxBytes: 0,
          txBytes: 0,
          peers: new Map(),
        };
      }
      const diff = diffInterface(desired, live);
      const fields: string[] = [];
      const head: string[] = [];
      if (live.publicKey !== desired.publicKey) {
        head.push(`PrivateKey = ${desired.privateKey}`);
        fields.push("private_key");
      }
      if (desired.listenPort !== null && live.listenPort !== desired.listenPort) {
        head.push(`ListenPort = ${desired.listenPort}`);
        fields.push("listen_port");
      }
      await this.#writeConf(desired.name, head, diff.upsert);
      await this.#removePeers(desired.name, diff.remove);
      const want = desired.addressV4;
      for (const a of live.addressesV4) {
        if (a !== want) {
          await this.#run("ip", ["addr", "del", a, "dev", desired.name]);
          fields.push("address");
        }
      }
      if (!live.addressesV4.includes(want)) {
        await this.#run("ip", ["addr", "add", want, "dev", desired.name]);
        if (!fields.includes("address")) fields.push("address");
      }
      if (live.mtu !== desired.mtu) {
        await this.#run("ip", ["link", "set", "dev", desired.name, "mtu", String(desired.mtu)]);
        fields.push("mtu");
      }
      if (live.up !== desired.up) {
        await this.#run("ip", ["link", "set", "dev", desired.name, desired.up ? "up" : "down"]);
        fields.push("link");
      }
      const result = {
        created,
        interfaceFields: fields,
        peersSet: diff.upsert.length,
        peersRemoved: diff.remove.length,
      };
      if (created || fields.length || diff.upsert.length || diff.remove.length) {
        this.#log.info("Interface synchronized", { interface: desired.name, ...result });
      }
      return result;
    });
  }

  setPeers(ifName: string, upsert: DesiredPeer[], remove: string[]): Promise<void> {
    return this.#serial(async () => {
      await this.#writeConf(ifName, [], upsert);
      await this.#removePeers(ifName, remove);
    });
  }

  setLink(ifName: string, up: boolean): Promise<void> {
    return this.#serial(async () => {
      await this.#run("ip", ["link", "set", "dev", ifName, up ? "up" : "down"]);
    });
  }

  remove(ifName: string): Promise<void> {
    return this.#serial(async () => {
      const r = await this.#run("ip", ["link", "del", "dev", ifName], { allowFail: true });
      if (r.code !== 0 && !/Cannot find device|does not exist/i.test(r.stderr)) {
        throw new HostError(`Cannot delete device "${ifName}": ${r.stderr.trim()}`);
      }
      await this.#waitSocketGone(ifName);
      this.#log.info("Interface removed", { interface: ifName });
    });
  }

  readRoutes(): Promise<LiveRoute[] | null> {
    return readLinuxRoutes(this.#run, this.#routes);
  }

  setRoutes(desired: DesiredRoute[]): Promise<void> {
    return this.#serial(async () => {
      const r = await setLinuxRoutes(this.#run, this.#routes, desired);
      if (r.set || r.removed) this.#log.info("Routes synchronized", { ...this.#routes, ...r });
    });
  }

  readFirewall(): Promise<LiveFirewall | null> {
    return readNftTable(this.#run, this.#nftTable);
  }

  setFirewall(rules: DesiredFirewallRule[]): Promise<void> {
    return this.#serial(async () => {
      await replaceNftTable(this.#run, this.#nftTable, rules);
      this.#log.info("Firewall table replaced", { table: this.#nftTable, rules: rules.length });
    });
  }

  /** Applies interface fields and peers through one `wg addconf` with a 0600 file. */
  async #writeConf(ifName: string, head: string[], peers: DesiredPeer[]): Promise<void> {
    if (!head.length && !peers.length) return;
    // Each [Peer] section of a config file replaces that peer's allowed IPs,
    // and peers not named in the file are left alone: a diff, not a reload.
    const text = ["[Interface]", ...head, "", ...peers.map(peerSection)].join("\n");
    await using dir = await secretDir();
    const file = await dir.write(`${ifName}.conf`, text);
    await this.#run("wg", ["addconf", ifName, file]);
  }

  async #removePeers(ifName: string, keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += REMOVE_CHUNK) {
      const args = ["set", ifName];
      for (const k of keys.slice(i, i + REMOVE_CHUNK)) args.push("peer", k, "remove");
      await this.#run("wg", args);
    }
  }

  async #create(ifName: string): Promise<void> {
    if (this.#mode !== "userspace") {
      const r = await this.#run("ip", ["link", "add", "dev", ifName, "type", "wireguard"], {
        allowFail: true,
      });
      if (r.code === 0) {
        this.#mode = "kernel";
        return;
      }
      if (this.#mode === "kernel" || !/Unknown device type|not supported/i.test(r.stderr)) {
        throw new HostError(`Cannot create device "${ifName}": ${r.stderr.trim()}`);
      }
      this.#mode = "userspace";
      this.#log.info("No WireGuard kernel module; using wireguard-go");
    }
    // The socket of a previous process may still be closing (restart, re-create).
    await this.#waitSocketGone(ifName);
    await this.#run("wireguard-go", [ifName], {
      // wireguard-go refuses to start where it believes a kernel module exists
      // unless told; an empty LOG_LEVEL makes the daemon detach from our pipes.
      env: { WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD: "1", LOG_LEVEL: "" },
    });
  }

  async #waitSocketGone(ifName: string): Promise<void> {
    const sock = `${this.#socketDir}/${ifName}.sock`;
    for (let i = 0; i < 100; i++) {
      try {
        await Deno.lstat(sock);
      } catch {
        return;
      }
      await new Promise((r) => setTimeout(r, 30));
    }
    if (this.#mode === "userspace") {
      throw new HostError(`Device "${ifName}" is still served by another wireguard-go process`);
    }
  }
}
