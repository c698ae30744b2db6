/**
 * certbot (Debian `certbot` with `python3-certbot-dns-rfc2136`) obtaining a
 * certificate over DNS-01 with RFC 2136 updates signed by a TSIG key: its
 * own config, work and logs dirs under `dir`, the ACME server's TLS CA
 * trusted through REQUESTS_CA_BUNDLE, bounded in time.
 */
import type { Pebble } from "./pebble.ts";
import { which } from "./system.ts";

/** The tools `runCertbot` needs (for `haveSystem`). */
export const CERTBOT_TOOLS = ["certbot"];

export interface CertbotRun {
  code: number;
  /** stdout, stderr and certbot's own log file, for a failure message. */
  out: string;
  ms: number;
  /** Where certbot puts the certificate of `domain` (present only when it got one). */
  certFile: string;
}

export interface Rfc2136Key {
  name: string;
  secret: string;
}

/**
 * Runs `certbot certonly` for `domain` against `pebble`, updating Palisade's
 * DNS listener on 127.0.0.1:`dnsPort` with `key`. The secret goes into a 0600
 * credentials file, never into the arguments.
 */
export async function runCertbot(opts: {
  dir: string;
  pebble: Pebble;
  dnsPort: number;
  key: Rfc2136Key;
  domain: string;
  timeoutMs?: number;
}): Promise<CertbotRun> {
  const { dir, domain } = opts;
  const ini = `${dir}/rfc2136.ini`;
  await Deno.writeTextFile(
    ini,
    [
      "dns_rfc2136_server = 127.0.0.1",
      `dns_rfc2136_port = ${opts.dnsPort}`,
      `dns_rfc2136_name = ${opts.key.name}`,
      `dns_rfc2136_secret = ${opts.key.secret}`,
      "dns_rfc2136_algorithm = HMAC-SHA256",
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const args = [
    "certonly",
    "--non-interactive",
    "--agree-tos",
    "--no-eff-email",
    "--email",
    `hostmaster@${domain}`,
    "--server",
    opts.pebble.directory,
    "--dns-rfc2136",
    "--dns-rfc2136-credentials",
    ini,
    "--dns-rfc2136-propagation-seconds",
    "1",
    "-d",
    domain,
    "--config-dir",
    `${dir}/config`,
    "--work-dir",
    `${dir}/work`,
    "--logs-dir",
    `${dir}/logs`,
  ];
  const started = performance.now();
  const child = new Deno.Command(which("certbot") ?? "certbot", {
    args,
    env: { REQUESTS_CA_BUNDLE: opts.pebble.caFile },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(opts.timeoutMs ?? 120_000),
  }).output();
  const res = await child;
  const ms = Math.round(performance.now() - started);
  const dec = new TextDecoder();
  const log = await Deno.readTextFile(`${dir}/logs/letsencrypt.log`).catch(() => "");
  return {
    code: res.code,
    out: `${dec.decode(res.stdout)}\n${dec.decode(res.stderr)}\n--- letsencrypt.log ---\n${log}`,
    ms,
    certFile: `${dir}/config/live/${domain}/cert.pem`,
  };
}
