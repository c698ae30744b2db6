/**
 * Picks the host driver from configuration. `auto` chooses linux only when it
 * can work (root, ip and wg present, and a kernel module or wireguard-go),
 * otherwise none, and logs which and why.
 */
import { ConfigError } from "../errors.ts";
import type { Logger } from "../log/log.ts";
import type { HostDriver } from "./driver.ts";
import { LinuxDriver } from "./linux_driver.ts";
import { NoneDriver } from "./none_driver.ts";
import { findTools, kernelModuleLoaded } from "./tools.ts";

export interface HostDriverConfig {
  /** PALISADE_HOST_DRIVER */
  driver: "auto" | "linux" | "none";
  /** PALISADE_HOST_NETNS */
  netns?: string;
  /** PALISADE_ROUTE_TABLE (default 254) */
  routeTable?: number;
  /** PALISADE_ROUTE_PROTOCOL (default 97) */
  routeProtocol?: number;
  /** PALISADE_NFT_TABLE (default "palisade") */
  nftTable?: string;
  logger: Logger;
}

function linux(config: HostDriverConfig): LinuxDriver {
  return new LinuxDriver({
    netns: config.netns,
    logger: config.logger,
    routeTable: config.routeTable,
    routeProtocol: config.routeProtocol,
    nftTable: config.nftTable,
  });
}

/** Why linux cannot run here, or null when it can. */
export function linuxUnavailable(): string | null {
  if (Deno.uid() !== 0) return "not running as root";
  const tools = findTools(["ip", "wg", "wireguard-go"]);
  const missing = ["ip", "wg"].filter((t) => !tools[t]);
  if (missing.length) return `${missing.join(", ")} not installed`;
  if (!kernelModuleLoaded() && !tools["wireguard-go"]) {
    return "no WireGuard kernel module and wireguard-go not installed";
  }
  return null;
}

/** The driver for `config`; throws ConfigError when linux is forced but cannot run. */
export function selectDriver(config: HostDriverConfig): HostDriver {
  const log = config.logger.child({ component: "host" });
  if (config.driver === "none") {
    log.info("Host driver selected", { driver: "none", reason: "configured" });
    return new NoneDriver();
  }
  const why = linuxUnavailable();
  if (config.driver === "linux") {
    if (why) throw new ConfigError("PALISADE_HOST_DRIVER", `linux driver cannot run: ${why}`);
    log.info("Host driver selected", {
      driver: "linux",
      reason: "configured",
      netns: config.netns,
    });
    return linux(config);
  }
  if (why) {
    log.warn("Host driver selected", { driver: "none", reason: why });
    return new NoneDriver(`host layer is off: ${why} (PALISADE_HOST_DRIVER=auto)`);
  }
  log.info("Host driver selected", { driver: "linux", reason: "auto", netns: config.netns });
  return linux(config);
}
