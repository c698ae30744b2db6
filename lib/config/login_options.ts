/**
 * Options of the login throttle and of the trusted reverse proxies whose
 * `X-Forwarded-For` names the client (docs/security.md, "Login throttling and
 * client addresses"). Part of `OPTIONS`, in `--help` order.
 */
import { TRUSTED_PROXIES_VARIABLE, trustedProxyMatcher } from "../net/client_address.ts";
import type { Option } from "./option.ts";
import type { LoginThrottle } from "./types.ts";
import { parseInteger, parseList } from "./values.ts";

const DAY_MS = 86_400_000;

/** The throttle's defaults, also the `default` column of its options. */
export const LOGIN_DEFAULTS: LoginThrottle = {
  windowMs: DAY_MS,
  freeFailures: 5,
  addressFreeFailures: 20,
  backoffMs: 1000,
  backoffMaxMs: 900_000,
  slowdownAfter: 10,
  slowdownStepMs: 200,
  slowdownMaxMs: 2000,
};

/** An integer option of the login throttle. */
function loginInteger(
  env: string,
  key: keyof LoginThrottle,
  range: [number, number],
  description: string,
): Option {
  return {
    env: `PALISADE_LOGIN_${env}`,
    flag: `--login-${env.toLowerCase().replaceAll("_", "-")}`,
    default: String(LOGIN_DEFAULTS[key]),
    description,
    apply: (c, v, n) => (c.login[key] = parseInteger(v, n, range[0], range[1])),
  };
}

export const LOGIN_OPTIONS: Option[] = [
  {
    env: TRUSTED_PROXIES_VARIABLE,
    flag: "--trusted-proxies",
    default: "",
    description:
      "Reverse proxies (addresses or CIDR prefixes) whose `X-Forwarded-For` names the client; the header is ignored from any other peer",
    apply: (c, v) => {
      const entries = parseList(v);
      trustedProxyMatcher(entries);
      c.trustedProxies = entries;
    },
  },
  loginInteger(
    "WINDOW_MS",
    "windowMs",
    [60_000, 30 * DAY_MS],
    "How long a failed login counts towards the limits below (then it is deleted)",
  ),
  loginInteger(
    "USER_FAILURES",
    "freeFailures",
    [1, 1000],
    "Failed logins one client address may make for one username before it must wait (429)",
  ),
  loginInteger(
    "ADDR_FAILURES",
    "addressFreeFailures",
    [1, 100_000],
    "Failed logins one client address may make across all usernames before it must wait (429)",
  ),
  loginInteger(
    "BACKOFF_MS",
    "backoffMs",
    [1, 3_600_000],
    "First wait once an address is past its free failures; each further failure doubles it",
  ),
  loginInteger(
    "BACKOFF_MAX_MS",
    "backoffMaxMs",
    [1, DAY_MS],
    "Longest wait of an address past its free failures",
  ),
  loginInteger(
    "SLOWDOWN_AFTER",
    "slowdownAfter",
    [1, 1_000_000],
    "Failed logins for one username, from any address, after which each attempt on it is delayed (never refused)",
  ),
  loginInteger(
    "SLOWDOWN_STEP_MS",
    "slowdownStepMs",
    [0, 60_000],
    "Delay added by each failed login for the username past PALISADE_LOGIN_SLOWDOWN_AFTER",
  ),
  loginInteger(
    "SLOWDOWN_MAX_MS",
    "slowdownMaxMs",
    [0, 60_000],
    "Longest delay of a login attempt for a username under attack",
  ),
];
