/**
 * Configuration from environment variables, each with a matching command-line
 * flag (`PALISADE_ADMIN_LISTEN` ⇔ `--admin-listen`); a flag wins over the
 * variable. `OPTIONS` (options.ts) is the single table the parser, `--help`
 * and the README table are checked against.
 */
import { ConfigError } from "../errors.ts";
import { LOGIN_DEFAULTS } from "./login_options.ts";
import { WEBAUTHN_DEFAULTS } from "./webauthn_options.ts";
import { OPTIONS } from "./options.ts";
import { WEBHOOK_DEFAULTS } from "./webhook_options.ts";
import type { Config } from "./types.ts";
import { autoWorkers } from "./values.ts";
import { JOURNAL_DEFAULTS } from "../dns/ixfr/journal_repo.ts";

export { OPTIONS } from "./options.ts";
export type { Config, HostDriverChoice, ListenAddress, LoginThrottle } from "./types.ts";
export { parseListen } from "./values.ts";

/** Checks that need several options at once. */
function crossCheck(c: Config): void {
  if (c.attest.heartbeatMinMs > c.attest.heartbeatMaxMs) {
    throw new ConfigError(
      "PALISADE_ATTEST_HB_MIN_MS",
      `${c.attest.heartbeatMinMs} is above PALISADE_ATTEST_HB_MAX_MS (${c.attest.heartbeatMaxMs})`,
    );
  }
  if (c.login.backoffMs > c.login.backoffMaxMs) {
    throw new ConfigError(
      "PALISADE_LOGIN_BACKOFF_MS",
      `${c.login.backoffMs} is above PALISADE_LOGIN_BACKOFF_MAX_MS (${c.login.backoffMaxMs})`,
    );
  }
}

function defaults(): Config {
  return {
    dataDir: "./data",
    database: { url: null, poolSize: 10, statementTimeoutMs: 5000 },
    backupKeep: 0,
    adminListen: { hostname: "127.0.0.1", port: 8000 },
    attestListen: { hostname: "0.0.0.0", port: 8080 },
    dnsApiListen: { hostname: "127.0.0.1", port: 8081 },
    dnsListen: { hostname: "127.0.0.1", port: 5300 },
    adminUser: "admin",
    adminPassword: null,
    pdnsApiKey: null,
    hostDriver: "auto",
    logLevel: "info",
    secureCookies: false,
    ssoForcePasswordLogin: false,
    trustedProxies: [],
    login: { ...LOGIN_DEFAULTS },
    webauthn: { ...WEBAUTHN_DEFAULTS },
    webhooks: { ...WEBHOOK_DEFAULTS },
    host: {
      pollMs: 5000,
      autoReconcile: false,
      defaultInterface: true,
      routeTable: 254,
      routeProtocol: 97,
      nftTable: "palisade",
    },
    dns: {
      nameservers: ["ns1.{zone}", "ns2.{zone}"],
      axfrAllow: ["127.0.0.1", "::1"],
      notify: [],
      tcp: { maxConnections: 128, perAddress: 8, firstQueryMs: 2000, idleMs: 10_000 },
      rrl: { mode: "auto", rate: 200, slip: 2, ipv4Prefix: 24, ipv6Prefix: 56 },
      dnssec: { propagationDelay: 3600, rolloverCheckMs: 60_000 },
      ixfrJournal: { ...JOURNAL_DEFAULTS },
    },
    attest: {
      frontendDir: "./static/attest",
      heartbeatMinMs: 12_000,
      heartbeatMaxMs: 25_000,
      geneSize: 512,
      purgeGraceMs: 300_000,
      allowedOrigins: ["*"],
      workers: autoWorkers(),
      initPerMinute: 120,
      maxSessions: 1_000_000,
      cacheMb: 32,
    },
  };
}

/** Splits `--flag=value` and `--flag value` arguments; unknown flags are errors. */
function parseArgs(args: string[]): Map<string, { value: string; flag: string }> {
  const byFlag = new Map(OPTIONS.map((o) => [o.flag, o]));
  const out = new Map<string, { value: string; flag: string }>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf("=");
    const flag = eq >= 0 ? arg.slice(0, eq) : arg;
    const opt = byFlag.get(flag);
    if (!opt) throw new ConfigError(flag, "unknown option (see --help)");
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (i + 1 < args.length) value = args[++i];
    else throw new ConfigError(flag, "needs a value");
    out.set(opt.env, { value, flag });
  }
  return out;
}

/** Builds the configuration from the environment and argv; throws ConfigError naming the culprit. */
export function parseConfig(env: Record<string, string | undefined>, args: string[] = []): Config {
  const cfg = defaults();
  const fromArgs = parseArgs(args);
  for (const opt of OPTIONS) {
    const arg = fromArgs.get(opt.env);
    const value = arg?.value ?? env[opt.env];
    if (value === undefined) continue;
    opt.apply(cfg, value, arg ? arg.flag : opt.env);
  }
  crossCheck(cfg);
  return cfg;
}

/** The `--help` text: one line per option. */
export function helpText(): string {
  const lines = OPTIONS.map((o) =>
    `  ${o.flag.padEnd(18)} ${o.env.padEnd(26)} ${o.description}${
      o.default === null ? "" : ` (default ${o.default})`
    }`
  );
  return `Usage: deno task start [options]\n\nEvery option is also an environment variable.\n\n${
    lines.join("\n")
  }\n`;
}
