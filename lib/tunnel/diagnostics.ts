/**
 * GET /diagnostics/tunnels, /diagnostics/firewall and /diagnostics/routes:
 * the host driver and its tools, the last pass, and the drift of each part
 * (interfaces and peers; Palisade's nftables table; Palisade's routes), each
 * read from one reconcile plan so diagnostics and the plan never disagree.
 */
import type { HostDriver, HostInfo } from "../host/driver.ts";
import { type Check, check, type SubsystemReport, worstStatus } from "../system/diagnostics.ts";
import type { PassResult, TunnelMonitor } from "./monitor.ts";
import { isFirewallItem, isRouteItem } from "./net_reconcile.ts";
import type { ReconcileItem, ReconcilePlan, Reconciler } from "./reconcile.ts";

export type DiagnosticCheck = Check;

export interface TunnelDiagnostics {
  subsystem: "tunnels";
  status: Check["status"];
  host: HostInfo;
  checks: Check[];
  last_pass: PassResult | null;
}

/** What a drift kind costs: something stored and absent (or wrong) fails; something extra warns. */
const WARN_ONLY = new Set([
  "peer_unexpected",
  "route_unexpected",
  "firewall_rule_unexpected",
  "firewall_order",
  "firewall_chain",
  "link_state",
]);

/** One check per needed tool: missing `ip`, `wg` (or `wireguard-go` without the module) fails. */
function toolChecks(info: HostInfo): Check[] {
  const checks: Check[] = [];
  for (const [tool, present] of Object.entries(info.tools)) {
    if (tool === "kernel_module") continue;
    const needed = tool === "ip" || tool === "wg" ||
      (tool === "wireguard-go" && !info.tools.kernel_module);
    checks.push(
      check(
        `tool_${tool}`,
        present ? "ok" : needed ? "fail" : "warn",
        present ? `${tool} found` : `${tool} not installed`,
      ),
    );
  }
  return checks;
}

/** The drift check over `items` (already filtered to one part). */
export function driftCheck(name: string, what: string, items: ReconcileItem[]): Check {
  if (!items.length) return check(name, "ok", `${what} match the stored state`, { items: [] });
  const status = items.every((i) => WARN_ONLY.has(i.kind)) ? "warn" : "fail";
  const kinds = [...new Set(items.map((i) => i.kind))].join(", ");
  return check(
    name,
    status,
    `${items.length} difference(s) in ${what.toLowerCase()} (${kinds}); see GET /reconcile/plan`,
    { items },
  );
}

/** The plan, or a failing check saying why it could not be read. */
async function planOrCheck(
  reconciler: Reconciler,
  name: string,
): Promise<ReconcilePlan | Check> {
  try {
    return await reconciler.plan();
  } catch (err) {
    return check(name, "fail", (err as Error).message);
  }
}

/** The checks of the tunnel subsystem; `startError` is why applying stored state at start failed. */
export async function tunnelDiagnostics(
  driver: HostDriver,
  monitor: TunnelMonitor,
  reconciler: Reconciler,
  startError: string | null,
): Promise<TunnelDiagnostics> {
  const info = await driver.info();
  const checks: Check[] = [];
  if (!info.active) {
    checks.push(check("host_driver", "off", info.detail));
    return { subsystem: "tunnels", status: "off", host: info, checks, last_pass: null };
  }
  checks.push(check("host_driver", "ok", info.detail), ...toolChecks(info));
  if (startError) checks.push(check("startup_apply", "fail", startError));
  const last = monitor.last;
  if (last?.error) checks.push(check("host_read", "fail", last.error, { at: last.at }));
  else {
    checks.push(
      check("host_read", "ok", last ? `Last pass ${last.at}` : "No pass yet", {
        at: last?.at ?? null,
      }),
    );
  }
  const plan = await planOrCheck(reconciler, "drift");
  if (!("items" in plan)) checks.push(plan);
  else {
    const items = plan.items.filter((i) => !isRouteItem(i) && !isFirewallItem(i));
    checks.push(driftCheck("drift", "Interfaces and peers", items));
  }
  return { subsystem: "tunnels", status: worstStatus(checks), host: info, checks, last_pass: last };
}

/**
 * `firewall` or `routes`: Palisade's nftables table (or routes) on the host
 * against the stored rules (or routes); off with an inactive driver.
 */
export async function netDiagnostics(
  part: "firewall" | "routes",
  driver: HostDriver,
  reconciler: Reconciler,
): Promise<SubsystemReport> {
  if (!driver.active) {
    const c = check("host_driver", "off", "The host layer is off; nothing is read from the host");
    return { subsystem: part, status: "off", checks: [c] };
  }
  const plan = await planOrCheck(reconciler, "drift");
  if (!("items" in plan)) return { subsystem: part, status: "fail", checks: [plan] };
  const checks: Check[] = [];
  if (part === "firewall") {
    const missing = plan.items.some((i) => i.kind === "firewall_table_missing");
    checks.push(
      check(
        "table",
        missing ? "fail" : "ok",
        missing ? "Palisade's nftables table is missing" : "Palisade's nftables table is present",
      ),
      driftCheck(
        "rules",
        "Firewall rules",
        plan.items.filter((i) => isFirewallItem(i) && i.kind !== "firewall_table_missing"),
      ),
    );
  } else {
    checks.push(driftCheck("routes", "Routes", plan.items.filter(isRouteItem)));
  }
  return { subsystem: part, status: worstStatus(checks), checks };
}
