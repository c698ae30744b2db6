/**
 * Users, sessions, tokens, the two login throttles and the DNS API's JWTs,
 * built for the composition root (lib/services.ts).
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import { SqliteMetaRepo } from "../system/meta_repo.ts";
import { AuthService } from "./auth.ts";
import { JwtService } from "./jwt.ts";
import { type LoginFailureTable, SqliteLoginAttemptRepo } from "./login_attempt_repo.ts";
import { LoginLimiter } from "./login_limiter.ts";
import { SqliteSessionRepo } from "./session_repo.ts";
import { SessionService } from "./sessions.ts";
import { SqliteTokenRepo } from "./token_repo.ts";
import { TokenService } from "./tokens.ts";
import { SqliteUserRepo } from "./user_repo.ts";
import { UserService } from "./users.ts";

export interface AuthDeps {
  config: Pick<Config, "login">;
  store: Store;
  clock: Clock;
  audit: AuditLog;
}

/**
 * `auth` serves the admin listener (API login and dashboard form), `dnsAuth`
 * the DNS API: the same checks, each under its own throttle, so guessing on
 * one login never makes the other wait.
 */
export function authServices({ config, store, clock, audit }: AuthDeps) {
  const db = SqliteAsync.of(store);
  const users = new UserService(new SqliteUserRepo(db), db, audit, clock);
  const sessions = new SessionService(new SqliteSessionRepo(db), clock);
  const tokens = new TokenService(new SqliteTokenRepo(db), db, audit, clock);
  const withLimiter = (table: LoginFailureTable) =>
    new AuthService(
      db,
      users,
      sessions,
      tokens,
      new LoginLimiter(new SqliteLoginAttemptRepo(db, table), db, clock, config.login),
      audit,
    );
  const auth = withLimiter("login_failures");
  const dnsAuth = withLimiter("dns_login_failures");
  const jwt = new JwtService(new SqliteMetaRepo(store), users, clock);
  return { users, sessions, auth, dnsAuth, jwt };
}
