/**
 * Per-site figures in Prometheus text format, appended to `/metrics`. The
 * `site` label is the site key: it never changes for the site's life (a name
 * can), and it is public already (it is in the site's pages).
 */
import { REJECT_REASONS } from "../metrics.ts";
import type { SiteCounters } from "./site_counters.ts";
import type { SiteEntry } from "./site_directory.ts";

function family(name: string, help: string, samples: string[]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} counter`, ...samples];
}

/** Lines for every site that has a counter slot; "" without sites. */
export function renderSiteMetrics(sites: readonly SiteEntry[], c: SiteCounters): string {
  const counted = sites.filter((s) => s.slot >= 0);
  if (counted.length === 0) return "";
  const figures = counted.map((s) => ({ label: `site="${s.site_key}"`, f: c.figures(s.slot) }));
  const lines = [
    ...family(
      "attest_site_sessions_created_total",
      "Sessions created since start, by the site whose key /init carried.",
      figures.map(({ label, f }) =>
        `attest_site_sessions_created_total{${label}} ${f.sessionsCreated}`
      ),
    ),
    ...family(
      "attest_site_init_refused_total",
      "Session creations refused since start because the Origin is not one of the site's.",
      figures.map(({ label, f }) => `attest_site_init_refused_total{${label}} ${f.initRefused}`),
    ),
    ...family(
      "attest_site_heartbeats_accepted_total",
      "Heartbeats accepted since start, by the site whose origin sent them.",
      figures.map(({ label, f }) =>
        `attest_site_heartbeats_accepted_total{${label}} ${f.accepted}`
      ),
    ),
    ...family(
      "attest_site_heartbeats_rejected_total",
      "Heartbeats rejected since start, by the site whose origin sent them and the first failed check.",
      figures.flatMap(({ label, f }) =>
        REJECT_REASONS.map((r) =>
          `attest_site_heartbeats_rejected_total{${label},reason="${r}"} ${f.rejected.get(r) ?? 0}`
        )
      ),
    ),
  ];
  return lines.join("\n") + "\n";
}
