/** The shape of the configuration `parseConfig()` builds. */
import type { NotifyTarget } from "../dns/notify.ts";
import type { LogLevel } from "../log/log.ts";
import type { JournalLimits } from "../dns/ixfr/journal_repo.ts";
import type { WebauthnSettings } from "./webauthn_options.ts";
import type { WebhookSettings } from "./webhook_options.ts";

export interface ListenAddress {
  hostname: string;
  port: number;
}

/** Limits of failed logins; durations in milliseconds. */
export interface LoginThrottle {
  /** How long a failure counts (and is kept in the store). */
  windowMs: number;
  /** Failures one address may make for one username before it must wait. */
  freeFailures: number;
  /** Failures one address may make across all usernames before it must wait. */
  addressFreeFailures: number;
  /** The first wait; each further failure doubles it. */
  backoffMs: number;
  /** The longest wait. */
  backoffMaxMs: number;
  /** Failures for one username, from any address, before its attempts are slowed down. */
  slowdownAfter: number;
  /** Added to the slow-down by each failure past `slowdownAfter`. */
  slowdownStepMs: number;
  /** The longest slow-down. */
  slowdownMaxMs: number;
}

export type HostDriverChoice = "auto" | "linux" | "none";

/** How many TCP connections the DNS listener keeps, and for how long. */
export interface DnsTcpLimits {
  /** Open connections at most; a new one beyond closes the longest-idle one. */
  maxConnections: number;
  /** Open connections of one client address at most; further ones are closed at once. */
  perAddress: number;
  /** How long a connection may wait for its first complete query. */
  firstQueryMs: number;
  /** How long a connection may stay idle between queries. */
  idleMs: number;
}

/** Response rate limiting of the DNS listener's UDP answers. */
export interface DnsRrlSettings {
  /** `auto`: on unless the listener is bound to a loopback address. */
  mode: "auto" | "on" | "off";
  rate: number;
  slip: number;
  ipv4Prefix: number;
  ipv6Prefix: number;
}

/** The shared PostgreSQL store (docs/scaling.md); `url` null: the embedded SQLite file. */
export interface DatabaseSettings {
  /** May hold a password: never logged. */
  url: string | null;
  poolSize: number;
  statementTimeoutMs: number;
}

export interface Config {
  dataDir: string;
  database: DatabaseSettings;
  /** Backups kept after a create; 0 keeps all (PALISADE_BACKUP_KEEP). */
  backupKeep: number;
  adminListen: ListenAddress;
  attestListen: ListenAddress;
  dnsApiListen: ListenAddress;
  dnsListen: ListenAddress;
  adminUser: string;
  /** Null means: generate one on first start and print it once. */
  adminPassword: string | null;
  /** The PowerDNS-compatible API's all-powerful key (PALISADE_PDNS_API_KEY); null: that API refuses everyone. A secret: never logged. */
  pdnsApiKey: string | null;
  hostDriver: HostDriverChoice;
  logLevel: LogLevel;
  /** Serve cookies with `Secure` (set when Palisade sits behind HTTPS). */
  secureCookies: boolean;
  /** Password sign-in stays on whatever the Single sign-on page says (docs/sso.md). */
  ssoForcePasswordLogin: boolean;
  /**
   * Addresses and CIDR prefixes of reverse proxies whose `X-Forwarded-For` is
   * believed (lib/net/client_address.ts); empty: the header is ignored.
   */
  trustedProxies: string[];
  /** The login throttle (lib/auth/login_limiter.ts). */
  login: LoginThrottle;
  /** The passkeys' relying party (lib/config/webauthn_options.ts). */
  webauthn: WebauthnSettings;
  host: {
    /** Network namespace the linux driver acts in (none: the process's own). */
    netns?: string;
    /** Interval of the telemetry and drift pass. */
    pollMs: number;
    /** Apply drift found by the periodic pass instead of only reporting it. */
    autoReconcile: boolean;
    /** Create the protected default interface wg0 at start when it is not stored. */
    defaultInterface: boolean;
    /** Routing table of Palisade's routes. */
    routeTable: number;
    /** Route protocol tag marking Palisade's routes. */
    routeProtocol: number;
    /** Palisade's nftables table (family inet). */
    nftTable: string;
  };
  dns: {
    /** Apex NS of new zones; `{zone}` stands for the zone name. */
    nameservers: string[];
    /** Addresses and prefixes allowed to transfer zones. */
    axfrAllow: string[];
    /** Secondaries to NOTIFY after each change. */
    notify: NotifyTarget[];
    /** Limits of DNS over TCP (docs/security.md, "DNS over TCP"). */
    tcp: DnsTcpLimits;
    /** Response rate limiting of UDP answers (docs/security.md). */
    rrl: DnsRrlSettings;
    /** DNSSEC key rollover (docs/dns.md, "Rollover"). */
    dnssec: {
      /** Seconds for a change to reach every secondary (RFC 7583's Dprp). */
      propagationDelay: number;
      /** How often the rollover scheduler looks for due steps, in milliseconds. */
      rolloverCheckMs: number;
    };
    /** How much IXFR journal each zone keeps (docs/dns.md, "IXFR"). */
    ixfrJournal: JournalLimits;
  };
  attest: {
    /** Folder served at `/` of the attestation listener. */
    frontendDir: string;
    heartbeatMinMs: number;
    heartbeatMaxMs: number;
    /** Checked by the core at each `/init` (an invalid size makes `/init` answer 500). */
    geneSize: number;
    purgeGraceMs: number;
    /** Origins allowed to call `/init` and `/hb` from a browser; `*` for any. */
    allowedOrigins: string[];
    /** Threads serving the attestation listener (SO_REUSEPORT); 0 serves it on the main thread. */
    workers: number;
    /** Sessions one client address may create per minute; 0 for no limit. */
    initPerMinute: number;
    /** Stored sessions at most; `/init` answers 503 beyond. */
    maxSessions: number;
    /** MiB of shared memory holding recent sessions' heartbeat state; 0 reads every heartbeat's session from SQLite. */
    cacheMb: number;
  };
  /** Outgoing webhooks (docs/webhooks.md). */
  webhooks: WebhookSettings;
}
