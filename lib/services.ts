/**
 * The composition root of `lib/`: builds every service over one store, one
 * clock and one event bus. `main.ts` and the tests call `createServices`; the
 * routes reach the result through `ctx.state.services`.
 */
import { AttestService } from "./attest/attest.ts";
import { type Core, loadCore } from "./attest/core.ts";
import { AuditLog } from "./audit/audit.ts";
import { AuthService } from "./auth/auth.ts";
import { JwtService } from "./auth/jwt.ts";
import { LoginLimiter } from "./auth/login_limiter.ts";
import { SessionService } from "./auth/sessions.ts";
import { TokenService } from "./auth/tokens.ts";
import { UserService } from "./auth/users.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config/config.ts";
import { EventBus } from "./events/bus.ts";
import type { Logger } from "./log/log.ts";
import { SettingsService } from "./settings/settings.ts";
import type { Store } from "./store/store.ts";
import { SystemService } from "./system/system.ts";

export interface Services {
  config: Config;
  log: Logger;
  clock: Clock;
  store: Store;
  events: EventBus;
  audit: AuditLog;
  users: UserService;
  auth: AuthService;
  jwt: JwtService;
  settings: SettingsService;
  system: SystemService;
  attest: AttestService;
  /** Stops timers; the caller closes the store. */
  stop(): Promise<void>;
}

export interface ServiceOptions {
  config: Config;
  store: Store;
  log: Logger;
  clock?: Clock;
  commit?: string;
  /** The attestation core; loaded from wasm/build/attest.wasm when absent. */
  core?: Core;
}

/** Housekeeping runs every minute: expired sessions go away. */
const HOUSEKEEPING_MS = 60_000;

/** Builds every service; starts only cheap timers. */
export async function createServices(opts: ServiceOptions): Promise<Services> {
  const { config, store, log } = opts;
  const clock = opts.clock ?? systemClock;
  const events = new EventBus();
  const audit = new AuditLog(store, events, clock);
  const users = new UserService(store, audit, clock);
  const sessions = new SessionService(store, clock);
  const tokens = new TokenService(store, audit, clock);
  const limiter = new LoginLimiter(store, clock);
  const auth = new AuthService(store, users, sessions, tokens, limiter, audit);
  const jwt = new JwtService(store, users, clock);
  const settings = new SettingsService(store, audit, events, clock);
  const system = new SystemService(store, clock, opts.commit ?? "unknown");
  const core = opts.core ?? await loadCore();
  const attest = new AttestService(
    store,
    core,
    clock,
    config.attest,
    log.child({ service: "attest" }),
  );
  system.addProbe({
    name: "attestation",
    summary: () => ({
      ...attest.stats(),
      accepted: attest.counters.accepted,
      rejected: attest.counters.rejectedTotal,
    }),
  });

  const housekeeping = setInterval(() => {
    try {
      sessions.purgeExpired();
      attest.purgeExpired();
    } catch (err) {
      log.warn("housekeeping failed", { err });
    }
  }, HOUSEKEEPING_MS);
  Deno.unrefTimer(housekeeping);

  return {
    config,
    log,
    clock,
    store,
    events,
    audit,
    users,
    auth,
    jwt,
    settings,
    system,
    attest,
    stop() {
      clearInterval(housekeeping);
      return Promise.resolve();
    },
  };
}
