/**
 * The identity providers (docs/sso.md) and the switch for local password
 * sign-in. Client secrets are sealed before they are stored and never leave
 * this class but to the callback (sign_in.ts); audit messages name the
 * provider, never the secret. Local password sign-in cannot be turned off
 * without an enabled provider, nor the last enabled provider removed while
 * it is off, so nobody is locked out; PALISADE_SSO_FORCE_PASSWORD_LOGIN
 * turns it back on from outside (break-glass).
 */
import type { AuditLog } from "../../audit/audit.ts";
import { type Clock, isoTime } from "../../clock.ts";
import { ConflictError, ForbiddenError, NotFoundError } from "../../errors.ts";
import type { SettingsRepo } from "../../settings/settings_repo.ts";
import type { AsyncTransactor } from "../../store/async_transactor.ts";
import type { Role } from "../roles.ts";
import type { OidcProviderRecord, OidcRepo } from "./oidc_repo.ts";
import { type ProviderInput, providerSettings } from "./provider_input.ts";
import type { SealedBox } from "../sealed_box.ts";

/** The stored setting (lib/settings) of local password sign-in: "false" turns it off. */
export const LOCAL_PASSWORD_KEY = "auth.local_password_enabled";

/** A provider as the dashboard lists it: never the client secret. */
export interface ProviderInfo {
  id: string;
  display_name: string;
  issuer: string;
  client_id: string;
  scopes: string;
  claim: string;
  role_map: Record<string, Role>;
  enabled: boolean;
  logout_at_provider: boolean;
  created_at: string;
  updated_at: string;
}

const info = (p: OidcProviderRecord): ProviderInfo => ({
  id: p.id,
  display_name: p.displayName,
  issuer: p.issuer,
  client_id: p.clientId,
  scopes: p.scopes,
  claim: p.claim,
  role_map: p.roleMap,
  enabled: p.enabled,
  logout_at_provider: p.logoutAtProvider,
  created_at: isoTime(p.createdAt),
  updated_at: isoTime(p.updatedAt),
});

const notFound = (id: string) => new NotFoundError(`Provider "${id}" does not exist`);

const lockout = () =>
  new ConflictError(
    "Local password sign-in is off: keep at least one enabled provider, or turn password sign-in on first",
    { code: "sso_lockout" },
  );

export class OidcProviders {
  constructor(
    private readonly repo: OidcRepo,
    private readonly settings: SettingsRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly box: SealedBox,
    /** PALISADE_SSO_FORCE_PASSWORD_LOGIN: password sign-in stays on whatever is stored. */
    private readonly forcePassword: boolean,
  ) {}

  async list(): Promise<ProviderInfo[]> {
    return (await this.repo.providers()).map(info);
  }

  async get(id: string): Promise<ProviderInfo> {
    const p = await this.repo.provider(id);
    if (!p) throw notFound(id);
    return info(p);
  }

  /** The enabled providers, for the sign-in page's buttons. */
  async buttons(): Promise<{ id: string; displayName: string }[]> {
    return (await this.repo.providers()).filter((p) => p.enabled)
      .map((p) => ({ id: p.id, displayName: p.displayName }));
  }

  /** An enabled provider with its client secret opened, for the sign-in; 404 otherwise. */
  async client(id: string): Promise<OidcProviderRecord> {
    const p = await this.repo.provider(id);
    if (!p || !p.enabled) throw notFound(id);
    const secret = await this.box.unseal(`oidc-client:${p.id}`, p.clientSecret);
    if (secret === null) throw new ForbiddenError(`Provider "${id}" has no usable client secret`);
    return { ...p, clientSecret: secret };
  }

  async create(actor: string, input: ProviderInput): Promise<ProviderInfo> {
    const s = providerSettings(input, false);
    const now = this.clock.now();
    const sealed = await this.box.seal(`oidc-client:${s.id}`, s.clientSecret);
    await this.transactor.tx(async () => {
      await this.repo.insertProvider({
        ...s,
        clientSecret: sealed,
        createdAt: now,
        updatedAt: now,
      });
      await this.#checkLockout();
      await this.#audit(actor, "sso.provider_created", `Created sign-in provider "${s.id}"`, s.id);
    });
    return this.get(s.id);
  }

  /** Replaces the settings of `id`; an empty client secret keeps the stored one. */
  async update(actor: string, id: string, input: ProviderInput): Promise<ProviderInfo> {
    const s = providerSettings({ ...input, id }, true);
    const sealed = s.clientSecret ? await this.box.seal(`oidc-client:${id}`, s.clientSecret) : null;
    await this.transactor.tx(async () => {
      const old = await this.repo.provider(id);
      if (!old) throw notFound(id);
      await this.repo.updateProvider({
        ...s,
        clientSecret: sealed ?? old.clientSecret,
        createdAt: old.createdAt,
        updatedAt: this.clock.now(),
      });
      await this.#checkLockout();
      const what = sealed ? " and its client secret" : "";
      await this.#audit(
        actor,
        "sso.provider_updated",
        `Updated sign-in provider "${id}"${what}`,
        id,
      );
    });
    return this.get(id);
  }

  async delete(actor: string, id: string): Promise<void> {
    await this.transactor.tx(async () => {
      if (!(await this.repo.deleteProvider(id))) throw notFound(id);
      await this.#checkLockout();
      await this.#audit(actor, "sso.provider_deleted", `Deleted sign-in provider "${id}"`, id);
    });
  }

  /** Whether the password form and the API login take passwords. */
  async localPasswordEnabled(): Promise<boolean> {
    return this.forcePassword || (await this.settings.value(LOCAL_PASSWORD_KEY)) !== "false";
  }

  /** The stored switch, as the dashboard shows it (the forcing option aside). */
  async localPasswordStored(): Promise<boolean> {
    return (await this.settings.value(LOCAL_PASSWORD_KEY)) !== "false";
  }

  get passwordForced(): boolean {
    return this.forcePassword;
  }

  /** Turns local password sign-in on or off; off needs an enabled provider. */
  async setLocalPassword(actor: string, enabled: boolean): Promise<void> {
    await this.transactor.tx(async () => {
      await this.settings.upsert({
        key: LOCAL_PASSWORD_KEY,
        value: String(enabled),
        isSecret: false,
        description: "Whether users may sign in with a local password",
        updatedAt: this.clock.now(),
      });
      await this.#checkLockout();
      await this.audit.add({
        actor,
        event_type: "settings.updated",
        message: `Set "${LOCAL_PASSWORD_KEY}" to "${enabled}"`,
        resource_type: "setting",
        resource_id: LOCAL_PASSWORD_KEY,
      });
    });
  }

  /** Refuses a password sign-in while local password sign-in is off. */
  async assertPasswordSignIn(): Promise<void> {
    if (await this.localPasswordEnabled()) return;
    throw new ForbiddenError("Password sign-in is turned off; use single sign-on", {
      code: "password_sign_in_disabled",
    });
  }

  async #checkLockout(): Promise<void> {
    if ((await this.settings.value(LOCAL_PASSWORD_KEY)) !== "false") return;
    if (!(await this.repo.providers()).some((p) => p.enabled)) throw lockout();
  }

  #audit(actor: string, event_type: string, message: string, id: string) {
    return this.audit.add({
      actor,
      event_type,
      message,
      resource_type: "sso_provider",
      resource_id: id,
    });
  }
}
