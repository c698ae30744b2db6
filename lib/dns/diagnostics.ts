/**
 * GET /diagnostics/dns: the UDP and TCP listeners run, every stored zone is
 * in the answer index (a zone whose SOA, apex NS or keys cannot be loaded is
 * left out and would answer REFUSED), and the last NOTIFY to each secondary
 * was acknowledged, with the serial it announced.
 */
import { type Check, check, type SubsystemReport, worstStatus } from "../system/diagnostics.ts";
import type { DnsRuntime } from "./dns_runtime.ts";
import type { ZoneRepo } from "./zone_repo.ts";
import type { DnsIndex } from "./zone_index.ts";

function listenerCheck(runtime: DnsRuntime): Check {
  const health = runtime.listener?.();
  if (!health) return check("listener", "fail", "The DNS listener is not running");
  const down = [health.udp ? [] : ["UDP"], health.tcp ? [] : ["TCP"]].flat();
  return check(
    "listener",
    down.length ? "fail" : "ok",
    down.length
      ? `The DNS listener on ${health.address} stopped serving ${down.join(" and ")}`
      : `Answering on ${health.address} (UDP and TCP)`,
    { ...health },
  );
}

async function zonesCheck(zones: Pick<ZoneRepo, "names">, index: DnsIndex): Promise<Check> {
  const stored = await zones.names();
  const missing = stored.filter((z) => !index.zone(z));
  const serials = Object.fromEntries(
    stored.flatMap((z) => {
      const served = index.zone(z);
      return served ? [[z, served.serial]] : [];
    }),
  );
  return check(
    "zones",
    missing.length ? "fail" : "ok",
    missing.length
      ? `${missing.length} of ${stored.length} stored zone(s) not served: ${
        missing.map((z) => JSON.stringify(z)).join(", ")
      }`
      : `All ${stored.length} stored zone(s) are served`,
    { stored: stored.length, served: stored.length - missing.length, missing, serials },
  );
}

function notifyCheck(runtime: DnsRuntime): Check {
  if (!runtime.notifyTargets.length) {
    return check("notify", "ok", "No secondaries configured (PALISADE_DNS_NOTIFY)", {
      secondaries: [],
    });
  }
  const outcomes = runtime.notifyOutcomes();
  const failed = outcomes.filter((o) => !o.ok);
  return check(
    "notify",
    failed.length ? "warn" : "ok",
    failed.length
      ? `The last NOTIFY to ${failed.map((o) => o.target).join(", ")} got no answer`
      : outcomes.length
      ? "Every secondary acknowledged its last NOTIFY"
      : "No NOTIFY sent since start",
    { targets: runtime.notifyTargets, secondaries: outcomes },
  );
}

export async function dnsDiagnostics(
  runtime: DnsRuntime,
  zones: Pick<ZoneRepo, "names">,
  index: DnsIndex,
): Promise<SubsystemReport> {
  const checks = [listenerCheck(runtime), await zonesCheck(zones, index), notifyCheck(runtime)];
  return { subsystem: "dns", status: worstStatus(checks), checks };
}
