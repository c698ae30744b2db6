/** GET /diagnostics/tunnels: the host driver, its tools, the last pass and the drift. */
import { isoTime } from "../clock.ts";
import type { HostDriver, HostInfo } from "../host/driver.ts";
import type { PassResult, TunnelMonitor } from "./monitor.ts";
import type { Reconciler } from "./reconcile.ts";

export interface DiagnosticCheck {
  name: string;
  status: "ok" | "warning" | "error" | "off";
  detail: string;
}

export interface TunnelDiagnostics {
  subsystem: "tunnels";
  status: "ok" | "warning" | "error" | "off";
  host: HostInfo;
  checks: DiagnosticCheck[];
  last_pass: PassResult | null;
}

/** One check per needed tool: missing `ip`, `wg` (or `wireguard-go` without the module) is an error. */
function toolChecks(info: HostInfo): DiagnosticCheck[] {
  const checks: DiagnosticCheck[] = [];
  for (const [tool, present] of Object.entries(info.tools)) {
    if (tool === "kernel_module") continue;
    const needed = tool === "ip" || tool === "wg" ||
      (tool === "wireguard-go" && !info.tools.kernel_module);
    checks.push({
      name: `tool_${tool}`,
      status: present ? "ok" : needed ? "error" : "warning",
      detail: present ? `${tool} found` : `${tool} not installed`,
    });
  }
  return checks;
}

/** The checks of the tunnel subsystem; `startError` is why applying stored state at start failed. */
export async function tunnelDiagnostics(
  driver: HostDriver,
  monitor: TunnelMonitor,
  reconciler: Reconciler,
  startError: string | null,
): Promise<TunnelDiagnostics> {
  const info = await driver.info();
  const checks: DiagnosticCheck[] = [];
  if (!info.active) {
    checks.push({ name: "host_driver", status: "off", detail: info.detail });
    return { subsystem: "tunnels", status: "off", host: info, checks, last_pass: null };
  }
  checks.push({ name: "host_driver", status: "ok", detail: info.detail }, ...toolChecks(info));
  if (startError) checks.push({ name: "startup_apply", status: "error", detail: startError });
  const last = monitor.last;
  if (last?.error) checks.push({ name: "host_read", status: "error", detail: last.error });
  else {
    checks.push({
      name: "host_read",
      status: "ok",
      detail: last ? `Last pass ${last.at}` : "No pass yet",
    });
  }
  const plan = await reconciler.plan().catch((err) => {
    checks.push({ name: "drift", status: "error", detail: (err as Error).message });
    return null;
  });
  if (plan) {
    checks.push({
      name: "drift",
      status: plan.items.length ? "warning" : "ok",
      detail: plan.items.length
        ? `${plan.items.length} differences; see GET /reconcile/plan`
        : `In sync at ${isoTime(Date.now())}`,
    });
  }
  const worst = checks.some((c) => c.status === "error")
    ? "error"
    : checks.some((c) => c.status === "warning")
    ? "warning"
    : "ok";
  return { subsystem: "tunnels", status: worst, host: info, checks, last_pass: last };
}
