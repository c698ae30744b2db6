/**
 * The console's host commands: fixed argument arrays run by the host layer's
 * runner (lib/host/command.ts), inside PALISADE_HOST_NETNS like the driver.
 * The client chooses the command and, where a command takes one, a checked
 * device name; the nftables table is always the configured one.
 */
import { z } from "zod";
import type { HostCommand } from "./types.ts";

const none = z.object({}).strict();

export const HOST_COMMANDS: Record<string, HostCommand> = {
  "wg show dump": {
    kind: "host",
    summary: "wg show <interface> dump; private and preshared keys masked",
    target: "required",
    targetKind: "interface",
    parameters: none,
    format: "wg_dump",
    argv: (_d, target) => ["wg", ["show", target!, "dump"]],
  },
  "ip addr show": {
    kind: "host",
    summary: "ip -j addr show [dev <interface>]",
    target: "optional",
    targetKind: "interface",
    parameters: none,
    format: "json",
    argv: (_d, target) => ["ip", ["-j", "addr", "show", ...(target ? ["dev", target] : [])]],
  },
  "ip route show": {
    kind: "host",
    summary: "ip -j route show",
    target: "none",
    parameters: none,
    format: "json",
    argv: () => ["ip", ["-j", "route", "show"]],
  },
  "ip link show": {
    kind: "host",
    summary: "ip -j link show",
    target: "none",
    parameters: none,
    format: "json",
    argv: () => ["ip", ["-j", "link", "show"]],
  },
  "nft list table": {
    kind: "host",
    summary: "nft -j list table inet <PALISADE_NFT_TABLE>",
    target: "none",
    parameters: none,
    format: "json",
    argv: (d) => ["nft", ["-j", "list", "table", "inet", d.nftTable]],
  },
};
