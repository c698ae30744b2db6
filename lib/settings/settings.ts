/**
 * Key-value settings. Only the keys named by `specs/tunnels.md` exist; each
 * has a validator. Secret values are stored as given but masked in every
 * listing, event and audit message.
 */
import type { AuditLog } from "../audit/audit.ts";
import { type Clock, isoTime } from "../clock.ts";
import { DomainError, FieldErrors, UnprocessableError, ValidationError } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import { hostKind } from "../net/host.ts";
import { isRole, ROLES } from "../auth/roles.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { SettingsRepo } from "./settings_repo.ts";

export const MASK = "********";

interface KeySpec {
  description: string;
  /** Returns the normalized value, or throws UnprocessableError. */
  normalize(value: string): string;
}

/** Validates the public host clients dial: a name or an address, never with a port. */
export function normalizeServerHost(value: string): string {
  const v = value.trim();
  if (!v) {
    throw new UnprocessableError(`Setting "wireguard.server_host" must not be empty`, "value");
  }
  if (hostKind(v)) return v.toLowerCase();
  if (/^\[[0-9A-Fa-f:.]+\]:\d+$/.test(v) || /^[^:]+:\d+$/.test(v)) {
    throw new UnprocessableError(
      `Setting "wireguard.server_host" must not embed a port ("${v}"); set "wireguard.server_port" instead`,
      "value",
    );
  }
  throw new UnprocessableError(
    `Setting "wireguard.server_host" is not a valid host name or address: "${v}"`,
    "value",
  );
}

/** Validates a UDP port 1-65535. */
export function normalizeServerPort(value: string): string {
  const v = value.trim();
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isInteger(n) || n < 1 || n > 65535) {
    throw new UnprocessableError(
      `Setting "wireguard.server_port" must be an integer from 1 to 65535, got "${v}"`,
      "value",
    );
  }
  return String(n);
}

function normalizeBool(value: string): string {
  const v = value.trim().toLowerCase();
  if (v === "true" || v === "false") return v;
  throw new UnprocessableError(
    `Setting "wireguard.server_endpoint_enabled" must be true or false, got "${value}"`,
    "value",
  );
}

/** The key of the roles that must use two-factor sign-in (lib/auth/two_factor.ts). */
export const TWO_FACTOR_ROLES = "auth.two_factor_roles";

/** Validates a comma-separated list of role names; "" (no role) is allowed. Kept in role order. */
export function normalizeRoles(value: string): string {
  const names = value.split(",").map((r) => r.trim().toLowerCase()).filter(Boolean);
  const bad = names.find((r) => !isRole(r));
  if (bad !== undefined) {
    throw new UnprocessableError(
      `Setting "${TWO_FACTOR_ROLES}" takes role names (${ROLES.join(", ")}), got "${bad}"`,
      "value",
    );
  }
  return ROLES.filter((r) => names.includes(r)).join(",");
}

export const SETTING_KEYS: Record<string, KeySpec> = {
  "wireguard.server_host": {
    description: "Public host name or address that clients dial (no port)",
    normalize: normalizeServerHost,
  },
  "wireguard.server_port": {
    description: "Public UDP port that clients dial",
    normalize: normalizeServerPort,
  },
  "wireguard.server_endpoint_enabled": {
    description: "Whether client configurations get the endpoint from these settings",
    normalize: normalizeBool,
  },
  [TWO_FACTOR_ROLES]: {
    description: "Roles whose users must use two-factor sign-in (comma-separated)",
    normalize: normalizeRoles,
  },
};

export interface Setting {
  key: string;
  value: string;
  is_secret: boolean;
  description: string;
  updated_at: string | null;
}

export interface SettingInput {
  key: string;
  value: string;
  is_secret?: boolean;
  description?: string;
}

/** The endpoint client configurations use by default. */
export interface ServerEndpoint {
  host: string | null;
  port: number | null;
  enabled: boolean;
}

export class SettingsService {
  constructor(
    private readonly repo: SettingsRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  /** Every supported key with its value (masked when secret); unset keys have value "". */
  async list(): Promise<Setting[]> {
    const rows = new Map((await this.repo.all()).map((r) => [r.key, r]));
    return Object.entries(SETTING_KEYS).map(([key, spec]) => {
      const r = rows.get(key);
      return {
        key,
        value: r ? (r.isSecret ? MASK : r.value) : "",
        is_secret: r ? r.isSecret : false,
        description: r?.description || spec.description,
        updated_at: r ? isoTime(r.updatedAt) : null,
      };
    });
  }

  /** The raw value of a key, for internal use only; undefined when unset. */
  get(key: string): Promise<string | undefined> {
    return this.repo.value(key);
  }

  /** Validates and upserts one setting: 400 for an unknown key, 422 for a bad value. */
  async put(input: SettingInput, actor: string): Promise<Setting> {
    const spec = SETTING_KEYS[input.key];
    if (!spec) {
      throw new ValidationError(
        `Unknown setting key "${input.key}"; supported keys: ${
          Object.keys(SETTING_KEYS).join(", ")
        }`,
        "key",
      );
    }
    const value = spec.normalize(input.value);
    const isSecret = input.is_secret ?? false;
    const description = input.description ?? spec.description;
    await this.transactor.tx(async () => {
      await this.repo.upsert({
        key: input.key,
        value,
        isSecret,
        description,
        updatedAt: this.clock.now(),
      });
      await this.audit.add({
        actor,
        event_type: "settings.updated",
        message: isSecret
          ? `Set "${input.key}" to a secret value`
          : `Set "${input.key}" to "${value}"`,
        resource_type: "setting",
        resource_id: input.key,
      });
      this.transactor.afterCommit(() =>
        this.events.emit("SettingsChanged", {
          key: input.key,
          value: isSecret ? null : value,
          is_secret: isSecret,
        })
      );
    });
    return (await this.list()).find((s) => s.key === input.key)!;
  }

  /**
   * Saves several settings at once, all or none: each `put` is a savepoint
   * of one transaction. Values equal to the stored ones are left alone.
   * Throws FieldErrors with each refused key's message.
   */
  async putAll(values: Record<string, string>, actor: string): Promise<void> {
    const errors: Record<string, string> = {};
    const current = await this.list();
    await this.transactor.tx(async () => {
      for (const s of current) {
        const value = values[s.key];
        if (value === undefined || value === s.value) continue;
        try {
          await this.put({ key: s.key, value, is_secret: s.is_secret }, actor);
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          errors[s.key] = err.message;
        }
      }
      if (Object.keys(errors).length) throw new FieldErrors("Settings were not saved", errors);
    });
  }

  /** The stored `wireguard.server_*` endpoint. */
  async serverEndpoint(): Promise<ServerEndpoint> {
    const stored = new Map((await this.repo.all()).map((r) => [r.key, r.value]));
    return endpointOf((key) => stored.get(key));
  }
}

/**
 * The endpoint made of the stored values `get` returns. Also the tunnel
 * domain's synchronous source (lib/services.ts) until that domain is ported.
 */
export function endpointOf(get: (key: string) => string | undefined): ServerEndpoint {
  const port = get("wireguard.server_port");
  return {
    host: get("wireguard.server_host") ?? null,
    port: port === undefined ? null : Number(port),
    enabled: (get("wireguard.server_endpoint_enabled") ?? "true") === "true",
  };
}
