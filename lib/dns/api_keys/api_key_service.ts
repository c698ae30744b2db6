/**
 * Scoped DNS API keys (docs/dns.md, "API keys"): `pdk_` and 32 random bytes
 * in base64url, shown once at creation; the store keeps the SHA-256. A key
 * acts for the scripts it is given to within its scope (`scope.ts`), on
 * Palisade's DNS API and the PowerDNS-compatible one; `enforceScope()` is the
 * one place a request is held against it, and every refusal is audited.
 */
import type { AuditLog } from "../../audit/audit.ts";
import { randomToken, safeEqual, sha256Hex } from "../../auth/secret.ts";
import { type Clock, isoTime } from "../../clock.ts";
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from "../../errors.ts";
import type { AsyncTransactor } from "../../store/async_transactor.ts";
import type { ApiKeyRecord, ApiKeyRepo } from "./api_key_repo.ts";
import { type KeyScope, scopeAllows, type ScopeRequest } from "./scope.ts";
import { checkScope, type ScopeInput, scopeSummary } from "./scope_input.ts";

/** What tells a key from a JWT or an admin API token. */
export const API_KEY_PREFIX = "pdk_";
const KEY_RE = /^pdk_[A-Za-z0-9_-]{43}$/;
/** `last_used_at` is informational; write it at most once a minute. */
const TOUCH_EVERY_MS = 60_000;

/** Who a request made with a key acts as: never the key or its hash. */
export interface ApiKeyPrincipal {
  id: string;
  name: string;
  scope: KeyScope;
}

/** A key as listed: never the key or its hash. */
export interface ApiKeyInfo extends ApiKeyPrincipal {
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_by: string;
  expired: boolean;
}

export interface NewApiKeyInput {
  name: string;
  /** ISO 8601; absent or null: the key does not expire. */
  expires_at?: string | null;
  scope: ScopeInput;
}

/** True when a bearer credential is shaped as an API key rather than a JWT. */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

/** The audit actor of a key: its name, marked as a key. */
export const keyActor = (p: Pick<ApiKeyPrincipal, "name">) => `api-key:${p.name}`;

export class ApiKeyService {
  constructor(
    private readonly repo: ApiKeyRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    /** Whether a zone exists: a key's zones must, when it is made. */
    private readonly zoneExists: (name: string) => Promise<boolean>,
  ) {}

  #info(r: ApiKeyRecord): ApiKeyInfo {
    return {
      id: r.id,
      name: r.name,
      scope: r.scope,
      created_at: isoTime(r.createdAt),
      expires_at: r.expiresAt === null ? null : isoTime(r.expiresAt),
      last_used_at: r.lastUsedAt === null ? null : isoTime(r.lastUsedAt),
      created_by: r.createdBy,
      expired: r.expiresAt !== null && r.expiresAt <= this.clock.now(),
    };
  }

  async #checkInput(input: NewApiKeyInput) {
    const name = input.name.trim();
    if (name === "" || name.length > 100) {
      throw new ValidationError("Name must be 1 to 100 characters", "name");
    }
    const scope = checkScope(input.scope);
    if (scope.zones !== "*") {
      for (const [i, z] of scope.zones.entries()) {
        if (!(await this.zoneExists(z))) {
          throw new NotFoundError(`Zone "${z}" does not exist`, `scope.zones[${i}]`);
        }
      }
    }
    let expiresAt: number | null = null;
    if (input.expires_at) {
      expiresAt = Date.parse(input.expires_at);
      if (Number.isNaN(expiresAt)) {
        throw new ValidationError(`"${input.expires_at}" is not a date`, "expires_at");
      }
    }
    return { name, scope, expiresAt };
  }

  /** Makes a key; the raw key is in this answer only. */
  async create(actor: string, input: NewApiKeyInput): Promise<ApiKeyInfo & { key: string }> {
    const { name, scope, expiresAt } = await this.#checkInput(input);
    const id = crypto.randomUUID();
    const key = `${API_KEY_PREFIX}${randomToken(32)}`;
    const createdAt = this.clock.now();
    const record = { id, name, keyHash: sha256Hex(key), scope, createdAt, expiresAt };
    await this.transactor.tx(async () => {
      await this.repo.insert({ ...record, createdBy: actor });
      await this.audit.add({
        actor,
        event_type: "dns.api_key_created",
        message: `Created DNS API key "${name}": ${scopeSummary(scope)}${
          expiresAt === null ? "" : `, expiring ${isoTime(expiresAt)}`
        }`,
        resource_type: "dns_api_key",
        resource_id: id,
      });
    });
    return { key, ...this.#info({ ...record, lastUsedAt: null, createdBy: actor }) };
  }

  /** Every key, newest first. */
  async list(): Promise<ApiKeyInfo[]> {
    return (await this.repo.list()).map((r) => this.#info(r));
  }

  /** One key; NotFoundError when absent. */
  async get(id: string): Promise<ApiKeyInfo> {
    const row = await this.repo.byId(id);
    if (!row) throw new NotFoundError(`API key "${id}" does not exist`, "id");
    return this.#info(row);
  }

  /** Deletes the key: requests with it fail from now on. */
  async revoke(actor: string, id: string): Promise<{ success: true; message: string }> {
    const row = await this.repo.byId(id);
    if (!row) throw new NotFoundError(`API key "${id}" does not exist`, "id");
    await this.transactor.tx(async () => {
      await this.repo.delete(id);
      await this.audit.add({
        actor,
        event_type: "dns.api_key_revoked",
        message: `Revoked DNS API key "${row.name}"`,
        resource_type: "dns_api_key",
        resource_id: id,
      });
    });
    return { success: true, message: `API key "${row.name}" revoked` };
  }

  /** The principal of a raw key; UnauthorizedError when unknown, revoked or expired. */
  async verify(raw: string): Promise<ApiKeyPrincipal> {
    const hash = sha256Hex(raw);
    const row = KEY_RE.test(raw) ? await this.repo.byHash(hash) : undefined;
    // The lookup found the row by its hash; comparing again in constant time keeps a
    // timing difference of the index from telling how much of a guess was right.
    if (!row || !safeEqual(hash, row.keyHash)) {
      throw new UnauthorizedError("Unknown or revoked API key", { code: "invalid_api_key" });
    }
    const now = this.clock.now();
    if (row.expiresAt !== null && now >= row.expiresAt) {
      throw new UnauthorizedError(`API key "${row.name}" expired at ${isoTime(row.expiresAt)}`, {
        code: "api_key_expired",
      });
    }
    if (row.lastUsedAt === null || now - row.lastUsedAt >= TOUCH_EVERY_MS) {
      await this.repo.touch(row.id, now);
    }
    return { id: row.id, name: row.name, scope: row.scope };
  }

  /**
   * Holds a request against the key it was made with: nothing to check for a
   * signed-in user (`principal` undefined); a key outside its scope is
   * refused (ForbiddenError) and the refusal audited.
   */
  async enforceScope(principal: ApiKeyPrincipal | undefined, req: ScopeRequest): Promise<void> {
    if (!principal || scopeAllows(principal.scope, req)) return;
    await this.refuse(principal, describe(req));
  }

  /** Audits and throws the refusal of `what` to the key. */
  async refuse(principal: ApiKeyPrincipal, what: string): Promise<never> {
    const message = `API key "${principal.name}" may not ${what}`;
    await this.audit.add({
      actor: keyActor(principal),
      event_type: "dns.api_key_refused",
      message,
      resource_type: "dns_api_key",
      resource_id: principal.id,
    });
    throw new ForbiddenError(message, { code: "out_of_scope" });
  }
}

/** `write TXT records at "x.example.org" in zone "example.org"`, for messages. */
function describe(r: ScopeRequest): string {
  if (r.zone === undefined) return r.access === "read" ? "list every zone" : "create zones";
  if (r.allRecords) return `${r.access} every record of zone "${r.zone}"`;
  if (r.type === undefined) {
    return r.access === "read" ? `read zone "${r.zone}"` : `change zone "${r.zone}" itself`;
  }
  const at = r.name === undefined ? "" : ` at "${r.name}"`;
  return `${r.access} ${r.type} records${at} in zone "${r.zone}"`;
}
