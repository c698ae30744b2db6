/**
 * lego (Debian `lego`) obtaining a certificate over DNS-01 with its `pdns`
 * provider, i.e. through a PowerDNS HTTP API: its own `--path`, the ACME
 * server's TLS CA trusted through LEGO_CA_CERTIFICATES, its DNS lookups
 * (finding the zone, the propagation check) sent to Palisade's DNS listener,
 * bounded in time.
 */
import type { Pebble } from "./pebble.ts";
import { which } from "./system.ts";

/** The tools `runLego` needs (for `haveSystem`). */
export const LEGO_TOOLS = ["lego"];

export interface LegoRun {
  code: number;
  /** lego's stdout and stderr (its log), for a failure message. */
  out: string;
  ms: number;
  /** The certificate lego stores for `domain` (leaf first, then the chain), present only when issued. */
  certFile: string;
}

/**
 * Runs `lego … run` for `domain` against `pebble`, changing records through
 * the PowerDNS API at `apiUrl` (the DNS-API listener's base URL, without
 * `/api`) with `apiKey`. The key goes in the environment, never the arguments.
 */
export async function runLego(opts: {
  dir: string;
  pebble: Pebble;
  dnsPort: number;
  apiUrl: string;
  apiKey: string;
  domain: string;
  timeoutMs?: number;
}): Promise<LegoRun> {
  const { dir, domain } = opts;
  const args = [
    "--server",
    opts.pebble.directory,
    "--email",
    `hostmaster@${domain}`,
    "--accept-tos",
    "--path",
    dir,
    "--dns",
    "pdns",
    "--dns.resolvers",
    `127.0.0.1:${opts.dnsPort}`,
    // Without it lego asks each NS of the zone on port 53, off loopback; pebble
    // still validates against Palisade, so the check that matters stays.
    "--dns.disable-cp",
    "--domains",
    domain,
    "run",
  ];
  const started = performance.now();
  const res = await new Deno.Command(which("lego") ?? "lego", {
    args,
    env: {
      PDNS_API_URL: opts.apiUrl,
      PDNS_API_KEY: opts.apiKey,
      PDNS_TTL: "10",
      PDNS_PROPAGATION_TIMEOUT: "10",
      PDNS_POLLING_INTERVAL: "1",
      PDNS_HTTP_TIMEOUT: "10",
      LEGO_CA_CERTIFICATES: opts.pebble.caFile,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000),
  }).output();
  const ms = Math.round(performance.now() - started);
  const dec = new TextDecoder();
  return {
    code: res.code,
    out: `${dec.decode(res.stdout)}\n${dec.decode(res.stderr)}`,
    ms,
    certFile: `${dir}/certificates/${domain}.crt`,
  };
}
