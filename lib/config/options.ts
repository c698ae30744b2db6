/**
 * The table of options: each environment variable with its flag, default,
 * description (the `--help` line and the README row) and how its value is
 * applied to the configuration.
 */
import { parseAcl } from "../dns/acl.ts";
import { parseNotifyTargets } from "../dns/notify.ts";
import { ConfigError } from "../errors.ts";
import { LOG_LEVELS, type LogLevel } from "../log/log.ts";
import { DATABASE_OPTIONS } from "./database_options.ts";
import { DNS_LIMIT_OPTIONS } from "./dns_options.ts";
import { LOGIN_OPTIONS } from "./login_options.ts";
import { NET_OPTIONS } from "./net_options.ts";
import { integerOption, type Option } from "./option.ts";
import { WEBAUTHN_OPTIONS } from "./webauthn_options.ts";
import { WEBHOOK_OPTIONS } from "./webhook_options.ts";
import { autoWorkers, parseBool, parseInteger, parseList, parseListen } from "./values.ts";

export type { Option } from "./option.ts";

/** Every option, in `--help` order. */
export const OPTIONS: Option[] = [
  {
    env: "PALISADE_DATA",
    flag: "--data",
    default: "./data",
    description: "Data directory: the SQLite file `palisade.db` and backups",
    apply: (c, v, n) => {
      if (!v.trim()) throw new ConfigError(n, "must not be empty");
      c.dataDir = v;
    },
  },
  ...DATABASE_OPTIONS,
  integerOption(
    "PALISADE_BACKUP_KEEP",
    0,
    [0, 10_000],
    "Backups kept in `<data>/backups`: creating one deletes the oldest beyond this many (0 keeps all)",
    (c, n) => (c.backupKeep = n),
  ),
  {
    env: "PALISADE_ADMIN_LISTEN",
    flag: "--admin-listen",
    default: "127.0.0.1:8000",
    description: "Admin listener: dashboard, tunnel REST API, event WebSocket",
    apply: (c, v, n) => (c.adminListen = parseListen(v, n)),
  },
  {
    env: "PALISADE_ATTEST_LISTEN",
    flag: "--attest-listen",
    default: "0.0.0.0:8080",
    description: "Attestation listener: `/init`, `/hb`, probes, static frontend",
    apply: (c, v, n) => (c.attestListen = parseListen(v, n)),
  },
  {
    env: "PALISADE_DNS_API_LISTEN",
    flag: "--dns-api-listen",
    default: "127.0.0.1:8081",
    description: "DNS management REST API (JWT)",
    apply: (c, v, n) => (c.dnsApiListen = parseListen(v, n)),
  },
  {
    env: "PALISADE_DNS_LISTEN",
    flag: "--dns-listen",
    default: "127.0.0.1:5300",
    description: "Authoritative DNS over UDP and TCP (use `0.0.0.0:53` in production)",
    apply: (c, v, n) => (c.dnsListen = parseListen(v, n)),
  },
  {
    env: "PALISADE_ADMIN_USER",
    flag: "--admin-user",
    default: "admin",
    description: "First administrator, created only when no user exists",
    apply: (c, v, n) => {
      if (!/^[A-Za-z0-9._@-]{1,64}$/.test(v)) {
        throw new ConfigError(n, `"${v}" is not a valid username (letters, digits, . _ @ -; 1-64)`);
      }
      c.adminUser = v;
    },
  },
  {
    env: "PALISADE_ADMIN_PASSWORD",
    flag: "--admin-password",
    default: null,
    description:
      "Password of the first administrator; when unset a strong one is generated and printed once",
    apply: (c, v, n) => {
      if (v.length < 12) throw new ConfigError(n, "must be at least 12 characters");
      c.adminPassword = v;
    },
  },
  {
    env: "PALISADE_PDNS_API_KEY",
    flag: "--pdns-api-key",
    default: null,
    description:
      "Key (`X-API-Key`) of the PowerDNS-compatible API under `/api/v1/servers` on the DNS-API listener, with every right (PowerDNS's `api-key`); unset: that API refuses every request",
    apply: (c, v, n) => {
      // The value is a secret: the message never repeats it.
      if (v.length < 16) throw new ConfigError(n, "must be at least 16 characters");
      c.pdnsApiKey = v;
    },
  },
  {
    env: "PALISADE_HOST_DRIVER",
    flag: "--host-driver",
    default: "auto",
    description:
      "WireGuard host layer: `auto` (linux when root with the tools present), `linux` or `none`",
    apply: (c, v, n) => {
      if (v !== "auto" && v !== "linux" && v !== "none") {
        throw new ConfigError(n, `expected auto, linux or none, got "${v}"`);
      }
      c.hostDriver = v;
    },
  },
  {
    env: "PALISADE_HOST_NETNS",
    flag: "--host-netns",
    default: null,
    description: "Network namespace the linux host driver acts in (default: the process's own)",
    apply: (c, v, n) => {
      if (!/^[A-Za-z0-9_.-]{1,64}$/.test(v)) {
        throw new ConfigError(n, `"${v}" is not a namespace name`);
      }
      c.host.netns = v;
    },
  },
  {
    env: "PALISADE_HOST_POLL_MS",
    flag: "--host-poll-ms",
    default: "5000",
    description:
      "Interval of the host telemetry and drift pass (PeerHandshake events, drift reports)",
    apply: (c, v, n) => (c.host.pollMs = parseInteger(v, n, 500, 3_600_000)),
  },
  {
    env: "PALISADE_HOST_AUTO_RECONCILE",
    flag: "--host-auto-reconcile",
    default: "false",
    description: "Let the periodic pass repair drift it finds (default: report it only)",
    apply: (c, v, n) => (c.host.autoReconcile = parseBool(v, n)),
  },
  {
    env: "PALISADE_DEFAULT_INTERFACE",
    flag: "--default-interface",
    default: "true",
    description:
      "Create the protected default interface wg0 (10.8.0.1/24, port wireguard.server_port or 51820) at start when it is not stored",
    apply: (c, v, n) => (c.host.defaultInterface = parseBool(v, n)),
  },
  ...NET_OPTIONS,
  {
    env: "PALISADE_DNS_NAMESERVERS",
    flag: "--dns-nameservers",
    default: "ns1.{zone},ns2.{zone}",
    description:
      "Apex NS host names of new zones (`{zone}` is replaced by the zone name; the first is the SOA MNAME)",
    apply: (c, v, n) => {
      const names = parseList(v);
      if (names.length === 0) throw new ConfigError(n, "needs at least one host name");
      for (const name of names) {
        if (!/^([A-Za-z0-9_{}-]{1,63}\.)*[A-Za-z0-9_{}-]{1,63}\.?$/.test(name)) {
          throw new ConfigError(n, `"${name}" is not a host name`);
        }
      }
      c.dns.nameservers = names;
    },
  },
  {
    env: "PALISADE_DNS_AXFR_ALLOW",
    flag: "--dns-axfr-allow",
    default: "127.0.0.1,::1",
    description:
      "Addresses or CIDR prefixes allowed to transfer zones (AXFR/IXFR); others get REFUSED",
    apply: (c, v, n) => {
      const entries = parseList(v);
      parseAcl(entries, n);
      c.dns.axfrAllow = entries;
    },
  },
  {
    env: "PALISADE_DNS_NOTIFY",
    flag: "--dns-notify",
    default: "",
    description:
      "Secondaries to NOTIFY after each zone change: `ip[:port]` list (port 53 by default)",
    apply: (c, v, n) => (c.dns.notify = parseNotifyTargets(parseList(v), n)),
  },
  ...DNS_LIMIT_OPTIONS,
  integerOption(
    "PALISADE_DNSSEC_PROPAGATION_DELAY",
    3600,
    [0, 604_800],
    "Seconds a zone change takes to reach every secondary; DNSSEC key rollovers wait this long beyond the TTLs",
    (c, n) => (c.dns.dnssec.propagationDelay = n),
  ),
  integerOption(
    "PALISADE_DNSSEC_ROLLOVER_CHECK_MS",
    60_000,
    [50, 3_600_000],
    "How often the DNSSEC key rollover scheduler applies due steps and starts automatic rotations",
    (c, n) => (c.dns.dnssec.rolloverCheckMs = n),
  ),
  integerOption(
    "PALISADE_DNS_IXFR_VERSIONS",
    100,
    [0, 100_000],
    "Serial steps of each zone kept for IXFR; 0 keeps none and every IXFR gets a full transfer",
    (c, n) => (c.dns.ixfrJournal.maxVersions = n),
  ),
  integerOption(
    "PALISADE_DNS_IXFR_MAX_AGE_DAYS",
    30,
    [1, 3650],
    "Days a zone's IXFR journal step is kept; older steps are dropped when the zone next changes",
    (c, n) => (c.dns.ixfrJournal.maxAgeDays = n),
  ),
  integerOption(
    "PALISADE_DNS_IXFR_MAX_ROWS",
    20_000,
    [0, 10_000_000],
    "Most records each zone's IXFR journal holds; the oldest steps are dropped first",
    (c, n) => (c.dns.ixfrJournal.maxRows = n),
  ),
  {
    env: "PALISADE_LOG",
    flag: "--log",
    default: "info",
    description: "Log level: debug, info, warn, error (JSON lines on stderr)",
    apply: (c, v, n) => {
      if (!LOG_LEVELS.includes(v as LogLevel)) {
        throw new ConfigError(n, `expected one of ${LOG_LEVELS.join(", ")}, got "${v}"`);
      }
      c.logLevel = v as LogLevel;
    },
  },
  {
    env: "PALISADE_SECURE_COOKIES",
    flag: "--secure-cookies",
    default: "false",
    description: "Mark the session cookie `Secure` (set behind an HTTPS proxy)",
    apply: (c, v, n) => (c.secureCookies = parseBool(v, n)),
  },
  ...LOGIN_OPTIONS,
  ...WEBAUTHN_OPTIONS,
  {
    env: "PALISADE_SSO_FORCE_PASSWORD_LOGIN",
    flag: "--sso-force-password-login",
    default: "false",
    description:
      "Break-glass: allow local password sign-in even when it is turned off on the Single sign-on page (docs/sso.md)",
    apply: (c, v, n) => (c.ssoForcePasswordLogin = parseBool(v, n)),
  },
  ...WEBHOOK_OPTIONS,
  {
    env: "PALISADE_ATTEST_FRONTEND",
    flag: "--attest-frontend",
    default: "./static/attest",
    description: "Folder served at `/` of the attestation listener (no path escapes it)",
    apply: (c, v, n) => {
      if (!v.trim()) throw new ConfigError(n, "must not be empty");
      c.attest.frontendDir = v;
    },
  },
  {
    env: "PALISADE_ATTEST_HB_MIN_MS",
    flag: "--attest-hb-min-ms",
    default: "12000",
    description: "Lower bound of heartbeat scheduling sent to clients",
    apply: (c, v, n) => (c.attest.heartbeatMinMs = parseInteger(v, n, 1, 3_600_000)),
  },
  {
    env: "PALISADE_ATTEST_HB_MAX_MS",
    flag: "--attest-hb-max-ms",
    default: "25000",
    description: "Upper bound of heartbeat scheduling sent to clients",
    apply: (c, v, n) => (c.attest.heartbeatMaxMs = parseInteger(v, n, 1, 3_600_000)),
  },
  {
    env: "PALISADE_ATTEST_GENE_SIZE",
    flag: "--attest-gene-size",
    default: "512",
    description:
      "Gene buffer size in bytes (the core accepts 64-65536; another size makes `/init` fail with 500)",
    apply: (c, v, n) => (c.attest.geneSize = parseInteger(v, n, -(2 ** 31), 2 ** 31)),
  },
  {
    env: "PALISADE_ATTEST_PURGE_GRACE_MS",
    flag: "--attest-purge-grace-ms",
    default: "300000",
    description:
      "How long expired sessions stay (counted in `expired_sessions`) before the purge deletes them",
    apply: (c, v, n) => (c.attest.purgeGraceMs = parseInteger(v, n, 0, 30 * 86_400_000)),
  },
  {
    env: "PALISADE_ATTEST_ALLOWED_ORIGINS",
    flag: "--attest-allowed-origins",
    default: "*",
    description:
      "Comma-separated origins allowed to call `/init` and `/hb` from browsers (CORS), or `*`",
    apply: (c, v, n) => {
      const origins = v.split(",").map((o) => o.trim()).filter(Boolean);
      for (const o of origins) {
        if (o !== "*" && !/^https?:\/\/[^/\s]+$/.test(o)) {
          throw new ConfigError(n, `"${o}" is not an origin like https://example.org`);
        }
      }
      c.attest.allowedOrigins = origins;
    },
  },
  {
    env: "PALISADE_ATTEST_INIT_PER_MINUTE",
    flag: "--attest-init-per-minute",
    default: "120",
    description:
      "Sessions one client address may create per minute (429 beyond; 0: no limit); behind a proxy, set PALISADE_TRUSTED_PROXIES",
    apply: (c, v, n) => (c.attest.initPerMinute = parseInteger(v, n, 0, 1_000_000)),
  },
  {
    env: "PALISADE_ATTEST_MAX_SESSIONS",
    flag: "--attest-max-sessions",
    default: "1000000",
    description:
      "Stored sessions at most; `/init` answers 503 beyond until expired ones are purged",
    apply: (c, v, n) => (c.attest.maxSessions = parseInteger(v, n, 1, 100_000_000)),
  },
  {
    env: "PALISADE_ATTEST_CACHE_MB",
    flag: "--attest-cache-mb",
    default: "32",
    description:
      "MiB of memory holding recent sessions' heartbeat state so that heartbeats skip a database read (~40,000 sessions at the default gene size; 0: off)",
    apply: (c, v, n) => (c.attest.cacheMb = parseInteger(v, n, 0, 65_536)),
  },
  {
    env: "PALISADE_ATTEST_WORKERS",
    flag: "--attest-workers",
    default: "auto",
    description:
      "Threads serving the attestation listener, each verifying its own requests (`auto`: one per core, at most 8, none on a single core; `0`: the main thread serves it)",
    apply: (
      c,
      v,
      n,
    ) => (c.attest.workers = v === "auto" ? autoWorkers() : parseInteger(v, n, 0, 64)),
  },
];
