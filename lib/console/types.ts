/** The shapes shared by the console's allowlist and its service. */
import type { z } from "zod";
import type { AuditLog } from "../audit/audit.ts";
import type { DnsService } from "../dns/dns_service.ts";
import type { DnsResponder } from "../dns/responder.ts";
import type { CommandRunner } from "../host/command.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { Diagnostics } from "../system/diagnostics.ts";
import type { SystemService } from "../system/system.ts";
import type { Tunnels } from "../tunnel/tunnels.ts";
import type { TargetKind } from "./input.ts";

/** What the console reads from; every call it makes is a read. */
export interface ConsoleDeps {
  tunnels: Pick<Tunnels, "interfaces" | "peers" | "reconciler" | "driver">;
  dns: Pick<DnsService, "listZones" | "getZone">;
  responder: Pick<DnsResponder, "tcp">;
  diagnostics: Pick<Diagnostics, "run" | "all">;
  system: Pick<SystemService, "version">;
  audit: AuditLog;
  transactor: AsyncTransactor;
  /** The host layer's runner, inside PALISADE_HOST_NETNS when set. */
  run: CommandRunner;
  netns: string | null;
  /** PALISADE_NFT_TABLE: the only table `nft list table` shows. */
  nftTable: string;
}

/** Whether a command takes a target: never, when the client gives one, or always. */
export type TargetUse = "none" | "optional" | "required";

interface CommandBase {
  /** What the command shows, for the error listing and the docs. */
  summary: string;
  target: TargetUse;
  /** How the target is checked (commands with a target). */
  targetKind?: TargetKind;
  /** Strict zod object of the parameters ({} when none). */
  parameters: z.ZodType<Record<string, unknown>>;
}

/** A command answered inside the process by the services' own reads. */
export interface InternalCommand extends CommandBase {
  kind: "internal";
  run(deps: ConsoleDeps, target: string | null, params: Record<string, unknown>): unknown;
}

/** A command run on the host through the host layer's runner, as an argument array. */
export interface HostCommand extends CommandBase {
  kind: "host";
  /** The program and its arguments; nothing in them comes from the client unchecked. */
  argv(deps: ConsoleDeps, target: string | null): [string, string[]];
  /** `json`: stdout parsed when it is JSON; `wg_dump`: text masked by column. */
  format: "json" | "wg_dump";
}

export type ConsoleCommand = InternalCommand | HostCommand;
