/**
 * The console's internal commands: each one is a read the API already
 * offers (listing, showing, planning, diagnosing), called in-process.
 */
import { z } from "zod";
import { NotFoundError } from "../errors.ts";
import { dnsQuery } from "./dns_query.ts";
import type { ConsoleDeps, InternalCommand } from "./types.ts";

const none = z.object({}).strict();

/** A stored interface by name (404 when none has it). */
async function storedInterface(d: ConsoleDeps, name: string) {
  const hit = (await d.tunnels.interfaces.list()).find((i) => i.name === name);
  if (!hit) throw new NotFoundError(`Interface "${name}" not found`, "target");
  return hit;
}

export const INTERNAL_COMMANDS: Record<string, InternalCommand> = {
  "interfaces list": {
    kind: "internal",
    summary: "stored interfaces (as GET /interfaces)",
    target: "none",
    parameters: none,
    run: (d) => d.tunnels.interfaces.list(),
  },
  "interfaces show": {
    kind: "internal",
    summary: "one stored interface by name",
    target: "required",
    targetKind: "interface",
    parameters: none,
    run: (d, target) => storedInterface(d, target!),
  },
  "peers list": {
    kind: "internal",
    summary: "peers with telemetry; parameters interface (name), status, limit (1-1000, 100)",
    target: "none",
    parameters: z.object({
      interface: z.string().regex(/^[a-z0-9_-]{1,15}$/).optional(),
      status: z.enum(["enabled", "disabled", "revoked"]).optional(),
      limit: z.number().int().min(1).max(1000).default(100),
    }).strict(),
    run: async (d, _t, p) => {
      const iface = p.interface === undefined
        ? undefined
        : (await storedInterface(d, p.interface as string)).id;
      return d.tunnels.peers.list({
        interface_id: iface,
        status: p.status as "enabled" | "disabled" | "revoked" | undefined,
        limit: p.limit as number,
      });
    },
  },
  "peers show": {
    kind: "internal",
    summary: "one peer with telemetry, by id",
    target: "required",
    targetKind: "uuid",
    parameters: none,
    run: (d, target) => d.tunnels.peers.get(target!),
  },
  "zones list": {
    kind: "internal",
    summary: "DNS zones",
    target: "none",
    parameters: none,
    run: (d) => d.dns.listZones(),
  },
  "zones show": {
    kind: "internal",
    summary: "one DNS zone by name",
    target: "required",
    targetKind: "zone",
    parameters: none,
    run: (d, target) => d.dns.getZone(target!),
  },
  "dns query": {
    kind: "internal",
    summary: "the DNS listener's answer to <name>, parameter type (default A; not AXFR, IXFR)",
    target: "required",
    targetKind: "dns_name",
    parameters: z.object({ type: z.string().max(16).default("A") }).strict(),
    run: (d, target, p) => dnsQuery(d.responder, target!, p.type as string),
  },
  "reconcile plan": {
    kind: "internal",
    summary: "drift between stored and live state (as GET /reconcile/plan)",
    target: "none",
    parameters: none,
    run: (d) => d.tunnels.reconciler.plan(),
  },
  "diagnostics": {
    kind: "internal",
    summary: "checks of one subsystem (target), or of all when no target",
    target: "optional",
    targetKind: "subsystem",
    parameters: none,
    run: (d, target) => target === null ? d.diagnostics.all() : d.diagnostics.run(target),
  },
  "system version": {
    kind: "internal",
    summary: "version, commit and runtime",
    target: "none",
    parameters: none,
    run: (d) => d.system.version(),
  },
  "audit tail": {
    kind: "internal",
    summary: "newest audit records; parameter limit (1-100, 20)",
    target: "none",
    parameters: z.object({ limit: z.number().int().min(1).max(100).default(20) }).strict(),
    run: async (d, _t, p) => (await d.audit.list({ limit: p.limit as number, offset: 0 })).records,
  },
};
