/**
 * Single sign-on (docs/sso.md) over the engine in use: the providers, the
 * sign-in flow, and its two hooks into the password login (turned off with
 * local password sign-in) and two-factor sign-in (single sign-on users are
 * exempt: their identity provider does MFA).
 */
import type { AuthService } from "../auth/auth.ts";
import { Discovery } from "../auth/oidc/discovery.ts";
import { OidcLogout } from "../auth/oidc/logout.ts";
import { type OidcRepo, SqliteOidcRepo } from "../auth/oidc/oidc_repo.ts";
import { PgOidcRepo } from "../auth/oidc/pg_oidc_repo.ts";
import { OidcProviders } from "../auth/oidc/providers.ts";
import { SealedBox } from "../auth/sealed_box.ts";
import { OidcSignIn } from "../auth/oidc/sign_in.ts";
import { PgUserRepo } from "../auth/pg_user_repo.ts";
import type { SessionService } from "../auth/sessions.ts";
import { SqliteUserRepo, type UserRepo } from "../auth/user_repo.ts";
import { PgSettingsRepo } from "../settings/pg_settings_repo.ts";
import { type SettingsRepo, SqliteSettingsRepo } from "../settings/settings_repo.ts";
import { pickRepo } from "../store/engine.ts";
import { type MetaRepo, SqliteMetaRepo } from "../system/meta_repo.ts";
import { PgMetaRepo } from "../system/pg_meta_repo.ts";
import type { Common } from "./common.ts";

export interface Sso {
  providers: OidcProviders;
  signIn: OidcSignIn;
  logout: OidcLogout;
}

interface SsoRepos {
  oidc: OidcRepo;
  users: UserRepo;
  settings: SettingsRepo;
  meta: MetaRepo;
}

export async function ssoServices(
  c: Common,
  auth: AuthService,
  sessions: SessionService,
): Promise<Sso> {
  const repos = pickRepo<SsoRepos>(c.engine, {
    sqlite: (db) => ({
      oidc: new SqliteOidcRepo(db),
      users: new SqliteUserRepo(db),
      settings: new SqliteSettingsRepo(db),
      meta: new SqliteMetaRepo(db),
    }),
    postgres: (db) => ({
      oidc: new PgOidcRepo(db),
      users: new PgUserRepo(db),
      settings: new PgSettingsRepo(db),
      meta: new PgMetaRepo(db),
    }),
  });
  const { db } = c.engine;
  const secrets = await SealedBox.open(repos.meta, "oidc_client_secret_key");
  const pending = await SealedBox.open(repos.meta, "oidc_pending_key");
  const providers = new OidcProviders(
    repos.oidc,
    repos.settings,
    db,
    c.audit,
    c.clock,
    secrets,
    c.config.ssoForcePasswordLogin,
  );
  const discovery = new Discovery(c.clock);
  const logout = new OidcLogout(repos.oidc, discovery, pending);
  const signIn = new OidcSignIn(
    providers,
    repos.oidc,
    repos.users,
    sessions,
    db,
    c.audit,
    c.clock,
    discovery,
    pending,
    logout,
  );
  auth.setPasswordGate(() => providers.assertPasswordSignIn());
  auth.twoFactor.exemptWhen((userId) => repos.oidc.hasIdentity(userId));
  return { providers, signIn, logout };
}
