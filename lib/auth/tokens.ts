/**
 * API tokens `svc_<uuid>_<random>`. The raw token is returned once, at
 * creation; the store keeps its SHA-256. A token acts with its owner's current
 * role, so demoting a user also demotes the user's tokens.
 */
import type { AuditLog } from "../audit/audit.ts";
import { type Clock, isoTime } from "../clock.ts";
import { NotFoundError } from "../errors.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import { roleAtLeast } from "./roles.ts";
import { randomToken, safeEqual, sha256Hex } from "./secret.ts";
import type { TokenRecord, TokenRepo } from "./token_repo.ts";
import type { AuthUser } from "./user.ts";

const DAY_MS = 24 * 3600_000;
/** `last_used_at` is informational; write it at most once a minute. */
const TOUCH_EVERY_MS = 60_000;
const TOKEN_RE =
  /^svc_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

export const TOKEN_MAX_DAYS = 3650;

/** What listings show of a token: never the token or its hash. */
export interface TokenMeta {
  id: string;
  name: string;
  /** The non-secret head of the token, to recognise it. */
  prefix: string;
  user_id: string;
  username: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  expired: boolean;
}

export class TokenService {
  constructor(
    private readonly repo: TokenRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  #meta(r: TokenRecord): TokenMeta {
    return {
      id: r.id,
      name: r.name,
      prefix: `svc_${r.id}`,
      user_id: r.owner.id,
      username: r.owner.username,
      created_at: isoTime(r.createdAt),
      expires_at: isoTime(r.expiresAt),
      last_used_at: r.lastUsedAt === null ? null : isoTime(r.lastUsedAt),
      expired: r.expiresAt <= this.clock.now(),
    };
  }

  /** Creates a token for `owner`; the raw value is only in this result. */
  async create(
    owner: AuthUser,
    name: string,
    expiresInDays: number,
  ): Promise<{ raw_token: string; meta: TokenMeta }> {
    const id = crypto.randomUUID();
    const raw = `svc_${id}_${randomToken(32)}`;
    const tokenHash = sha256Hex(raw);
    const now = this.clock.now();
    await this.transactor.tx(async () => {
      await this.repo.insert({
        id,
        userId: owner.id,
        name,
        tokenHash,
        createdAt: now,
        expiresAt: now + expiresInDays * DAY_MS,
      });
      await this.audit.add({
        actor: owner.username,
        event_type: "token.created",
        message: `Created API token "${name}" expiring in ${expiresInDays} days`,
        resource_type: "token",
        resource_id: id,
      });
    });
    return { raw_token: raw, meta: this.#meta((await this.repo.byId(id))!) };
  }

  /** Tokens owned by `user`, or every token for an administrator asking for all. */
  async list(user: AuthUser, all = false): Promise<TokenMeta[]> {
    const rows = all && roleAtLeast(user.role, "administrator")
      ? await this.repo.listAll()
      : await this.repo.listOf(user.id);
    return rows.map((r) => this.#meta(r));
  }

  /** Revokes a token of `caller` (an administrator may revoke anyone's); 404 otherwise. */
  async revoke(id: string, caller: AuthUser): Promise<void> {
    const row = await this.repo.byId(id);
    if (!row || (row.owner.id !== caller.id && !roleAtLeast(caller.role, "administrator"))) {
      throw new NotFoundError(`Token "${id}" does not exist`);
    }
    await this.transactor.tx(async () => {
      await this.repo.delete(id);
      await this.audit.add({
        actor: caller.username,
        event_type: "token.revoked",
        message: `Revoked API token "${row.name}" of "${row.owner.username}"`,
        resource_type: "token",
        resource_id: id,
      });
    });
  }

  /** The owner of a raw bearer token; null when malformed, unknown, revoked or expired. */
  async resolve(raw: string | undefined): Promise<AuthUser | null> {
    const m = raw ? TOKEN_RE.exec(raw) : null;
    if (!m) return null;
    const row = await this.repo.byId(m[1]);
    if (!row || !safeEqual(sha256Hex(raw!), row.tokenHash)) return null;
    const now = this.clock.now();
    if (now >= row.expiresAt) return null;
    if (row.lastUsedAt === null || now - row.lastUsedAt >= TOUCH_EVERY_MS) {
      await this.repo.touch(row.id, now);
    }
    return row.owner;
  }
}
