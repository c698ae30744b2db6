/**
 * Users, sessions, tokens, the two login throttles and the DNS API's JWTs,
 * built for the composition root (lib/services.ts) over either engine.
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import { pickRepo, type StoreEngine } from "../store/engine.ts";
import { PgSettingsRepo } from "../settings/pg_settings_repo.ts";
import { TWO_FACTOR_ROLES } from "../settings/settings.ts";
import { type SettingsRepo, SqliteSettingsRepo } from "../settings/settings_repo.ts";
import { type MetaRepo, SqliteMetaRepo } from "../system/meta_repo.ts";
import { PgMetaRepo } from "../system/pg_meta_repo.ts";
import { AuthService } from "./auth.ts";
import { JwtService } from "./jwt.ts";
import {
  type LoginAttemptRepo,
  type LoginFailureTable,
  SqliteLoginAttemptRepo,
} from "./login_attempt_repo.ts";
import { LoginLimiter } from "./login_limiter.ts";
import { LoginTickets } from "./login_ticket.ts";
import { PasskeyChallenges } from "./passkey/challenges.ts";
import { type PasskeyRepo, SqlitePasskeyRepo } from "./passkey/passkey_repo.ts";
import { PasskeyService } from "./passkey/passkeys.ts";
import { PgPasskeyRepo } from "./passkey/pg_passkey_repo.ts";
import { PgLoginAttemptRepo } from "./pg_login_attempt_repo.ts";
import { PgSessionRepo } from "./pg_session_repo.ts";
import { PgTokenRepo } from "./pg_token_repo.ts";
import { PgTotpRepo } from "./pg_totp_repo.ts";
import { PgUserRepo } from "./pg_user_repo.ts";
import { type SessionRepo, SqliteSessionRepo } from "./session_repo.ts";
import { SessionService } from "./sessions.ts";
import { SqliteTokenRepo, type TokenRepo } from "./token_repo.ts";
import { TokenService } from "./tokens.ts";
import { SqliteTotpRepo, type TotpRepo } from "./totp_repo.ts";
import { TotpSealer } from "./totp_seal.ts";
import { TwoFactorService } from "./two_factor.ts";
import { TwoFactorAdmin } from "./two_factor_admin.ts";
import { SqliteUserRepo, type UserRepo } from "./user_repo.ts";
import { UserService } from "./users.ts";

export interface AuthDeps {
  config: Pick<Config, "login">;
  engine: StoreEngine;
  clock: Clock;
  audit: AuditLog;
}

interface AuthRepos {
  users: UserRepo;
  sessions: SessionRepo;
  tokens: TokenRepo;
  attempts(table: LoginFailureTable): LoginAttemptRepo;
  meta: MetaRepo;
  totp: TotpRepo;
  settings: SettingsRepo;
  passkeys: PasskeyRepo;
}

/** The auth repositories of `engine`. */
function authRepos(engine: StoreEngine): AuthRepos {
  return pickRepo<AuthRepos>(engine, {
    sqlite: (db) => ({
      users: new SqliteUserRepo(db),
      sessions: new SqliteSessionRepo(db),
      tokens: new SqliteTokenRepo(db),
      attempts: (table: LoginFailureTable) => new SqliteLoginAttemptRepo(db, table),
      meta: new SqliteMetaRepo(db),
      totp: new SqliteTotpRepo(db),
      settings: new SqliteSettingsRepo(db),
      passkeys: new SqlitePasskeyRepo(db),
    }),
    postgres: (db) => ({
      users: new PgUserRepo(db),
      sessions: new PgSessionRepo(db),
      tokens: new PgTokenRepo(db),
      attempts: (table: LoginFailureTable) => new PgLoginAttemptRepo(db, table),
      meta: new PgMetaRepo(db),
      totp: new PgTotpRepo(db),
      settings: new PgSettingsRepo(db),
      passkeys: new PgPasskeyRepo(db),
    }),
  });
}

/**
 * `auth` serves the admin listener (API login and dashboard form), `dnsAuth`
 * the DNS API: the same checks, each under its own throttle, so guessing on
 * one login never makes the other wait.
 */
export async function authServices({ config, engine, clock, audit }: AuthDeps) {
  const { db } = engine;
  const repos = authRepos(engine);
  const users = new UserService(repos.users, db, audit, clock);
  const sessions = new SessionService(repos.sessions, clock);
  const tokens = new TokenService(repos.tokens, db, audit, clock);
  const twoFactor = new TwoFactorService(
    repos.totp,
    db,
    audit,
    clock,
    await TotpSealer.open(repos.meta),
    () => repos.settings.value(TWO_FACTOR_ROLES),
    async (userId) => (await repos.passkeys.count(userId)) > 0,
  );
  const passkeys = new PasskeyService(
    repos.passkeys,
    db,
    audit,
    clock,
    await PasskeyChallenges.open(repos.meta, clock),
  );
  const twoFactorAdmin = new TwoFactorAdmin(
    repos.totp,
    repos.passkeys,
    users,
    sessions,
    db,
    audit,
  );
  const tickets = await LoginTickets.open(repos.meta, clock);
  const withLimiter = (table: LoginFailureTable) =>
    new AuthService(
      db,
      users,
      sessions,
      tokens,
      new LoginLimiter(repos.attempts(table), db, clock, config.login),
      audit,
      twoFactor,
      tickets,
      passkeys,
      twoFactorAdmin,
    );
  const auth = withLimiter("login_failures");
  const dnsAuth = withLimiter("dns_login_failures");
  const jwt = await JwtService.open(repos.meta, users, clock);
  return { users, sessions, auth, dnsAuth, jwt };
}
