/**
 * Options of the outgoing webhooks (docs/webhooks.md): retries, timeouts, the
 * delivery log's size, the derived events' thresholds, and whether loopback
 * and link-local targets are allowed. Part of `OPTIONS`, in `--help` order.
 */
import { integerOption, type Option } from "./option.ts";
import { parseBool } from "./values.ts";

/** What the webhook deliveries and derived events are bound by; durations in milliseconds. */
export interface WebhookSettings {
  /** Attempts per delivery at most (the first one included). */
  maxAttempts: number;
  /** The first wait before a retry; each further retry doubles it. */
  retryBaseMs: number;
  /** No retry starts later than this after the first attempt. */
  retryMaxTotalMs: number;
  /** How long one attempt may take (connect, send, answer). */
  timeoutMs: number;
  /** Delivery log rows kept per subscription; older ones are dropped. */
  logKeep: number;
  /** Whether loopback, link-local and unspecified addresses may be targets. */
  allowLocal: boolean;
  /** A peer whose latest handshake is older than this counts as disconnected. */
  peerDisconnectedMs: number;
  /** Failed sign-ins within `loginFailureWindowMs` that raise `auth.login_failures`. */
  loginFailureThreshold: number;
  loginFailureWindowMs: number;
  /** After a secret rotation, how long deliveries are signed with the previous secret too. */
  secretGraceMs: number;
}

export const WEBHOOK_DEFAULTS: WebhookSettings = {
  maxAttempts: 6,
  retryBaseMs: 1000,
  retryMaxTotalMs: 600_000,
  timeoutMs: 10_000,
  logKeep: 100,
  allowLocal: false,
  peerDisconnectedMs: 180_000,
  loginFailureThreshold: 10,
  loginFailureWindowMs: 300_000,
  secretGraceMs: 86_400_000,
};

function hookInteger(
  env: string,
  key: Exclude<keyof WebhookSettings, "allowLocal">,
  range: [number, number],
  description: string,
): Option {
  return integerOption(
    `PALISADE_WEBHOOK_${env}`,
    WEBHOOK_DEFAULTS[key],
    range,
    description,
    (c, n) => (c.webhooks[key] = n),
  );
}

export const WEBHOOK_OPTIONS: Option[] = [
  hookInteger(
    "MAX_ATTEMPTS",
    "maxAttempts",
    [1, 20],
    "Attempts per webhook delivery at most, the first included (docs/webhooks.md)",
  ),
  hookInteger(
    "RETRY_BASE_MS",
    "retryBaseMs",
    [10, 3_600_000],
    "Wait before a webhook delivery's first retry; each further retry waits twice as long",
  ),
  hookInteger(
    "RETRY_MAX_TOTAL_MS",
    "retryMaxTotalMs",
    [0, 86_400_000],
    "No webhook retry starts later than this after the first attempt",
  ),
  hookInteger(
    "TIMEOUT_MS",
    "timeoutMs",
    [100, 120_000],
    "How long one webhook attempt may take; no answer in time counts as a failure",
  ),
  hookInteger(
    "LOG_KEEP",
    "logKeep",
    [1, 10_000],
    "Delivery log rows kept per webhook; the oldest are dropped",
  ),
  {
    env: "PALISADE_WEBHOOK_ALLOW_LOCAL",
    flag: "--webhook-allow-local",
    default: "false",
    description:
      "Allow webhook URLs that resolve to loopback, link-local or unspecified addresses (refused by default)",
    apply: (c, v, n) => (c.webhooks.allowLocal = parseBool(v, n)),
  },
  hookInteger(
    "PEER_DISCONNECTED_MS",
    "peerDisconnectedMs",
    [10_000, 86_400_000],
    "A peer whose latest handshake is older than this is disconnected (`peer.disconnected` webhooks)",
  ),
  hookInteger(
    "LOGIN_FAILURES",
    "loginFailureThreshold",
    [1, 1_000_000],
    "Failed sign-ins within PALISADE_WEBHOOK_LOGIN_WINDOW_MS that send `auth.login_failures` webhooks",
  ),
  hookInteger(
    "LOGIN_WINDOW_MS",
    "loginFailureWindowMs",
    [1000, 86_400_000],
    "Window over which failed sign-ins are counted for `auth.login_failures` webhooks",
  ),
  hookInteger(
    "SECRET_GRACE_MS",
    "secretGraceMs",
    [0, 2_592_000_000],
    "After a webhook secret rotation, how long deliveries are signed with the previous secret too",
  ),
];
