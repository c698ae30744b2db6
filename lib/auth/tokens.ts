/**
 * API tokens `svc_<uuid>_<random>`. The raw token is returned once, at
 * creation; the store keeps its SHA-256. A token acts with its owner's current
 * role, so demoting a user also demotes the user's tokens.
 */
import type { AuditLog } from "../audit/audit.ts";
import { type Clock, isoTime } from "../clock.ts";
import { NotFoundError } from "../errors.ts";
import type { Store } from "../store/store.ts";
import type { Role } from "./roles.ts";
import { roleAtLeast } from "./roles.ts";
import { randomToken, safeEqual, sha256Hex } from "./secret.ts";
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

interface TokenRow {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  username: string;
  email: string;
  role: Role;
}

export class TokenService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  #meta(r: TokenRow): TokenMeta {
    return {
      id: r.id,
      name: r.name,
      prefix: `svc_${r.id}`,
      user_id: r.user_id,
      username: r.username,
      created_at: isoTime(r.created_at),
      expires_at: isoTime(r.expires_at),
      last_used_at: r.last_used_at === null ? null : isoTime(r.last_used_at),
      expired: r.expires_at <= this.clock.now(),
    };
  }

  #row(id: string): TokenRow | undefined {
    return this.store.get<TokenRow>(
      "SELECT t.*, u.username, u.email, u.role FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.id = ?",
      id,
    );
  }

  /** Creates a token for `owner`; the raw value is only in this result. */
  create(
    owner: AuthUser,
    name: string,
    expiresInDays: number,
  ): { raw_token: string; meta: TokenMeta } {
    const id = crypto.randomUUID();
    const raw = `svc_${id}_${randomToken(32)}`;
    const now = this.clock.now();
    this.store.tx(() => {
      this.store.run(
        "INSERT INTO api_tokens (id, user_id, name, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
        id,
        owner.id,
        name,
        sha256Hex(raw),
        now,
        now + expiresInDays * DAY_MS,
      );
      this.audit.record({
        actor: owner.username,
        event_type: "token.created",
        message: `Created API token "${name}" expiring in ${expiresInDays} days`,
        resource_type: "token",
        resource_id: id,
      });
    });
    return { raw_token: raw, meta: this.#meta(this.#row(id)!) };
  }

  /** Tokens owned by `user`, or every token for an administrator asking for all. */
  list(user: AuthUser, all = false): TokenMeta[] {
    const rows = all && roleAtLeast(user.role, "administrator")
      ? this.store.all<TokenRow>(
        "SELECT t.*, u.username, u.email, u.role FROM api_tokens t JOIN users u ON u.id = t.user_id ORDER BY t.created_at DESC",
      )
      : this.store.all<TokenRow>(
        "SELECT t.*, u.username, u.email, u.role FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.user_id = ? ORDER BY t.created_at DESC",
        user.id,
      );
    return rows.map((r) => this.#meta(r));
  }

  /** Revokes a token of `caller` (an administrator may revoke anyone's); 404 otherwise. */
  revoke(id: string, caller: AuthUser): void {
    const row = this.#row(id);
    if (!row || (row.user_id !== caller.id && !roleAtLeast(caller.role, "administrator"))) {
      throw new NotFoundError(`Token "${id}" does not exist`);
    }
    this.store.tx(() => {
      this.store.run("DELETE FROM api_tokens WHERE id = ?", id);
      this.audit.record({
        actor: caller.username,
        event_type: "token.revoked",
        message: `Revoked API token "${row.name}" of "${row.username}"`,
        resource_type: "token",
        resource_id: id,
      });
    });
  }

  /** The owner of a raw bearer token; null when malformed, unknown, revoked or expired. */
  resolve(raw: string | undefined): AuthUser | null {
    const m = raw ? TOKEN_RE.exec(raw) : null;
    if (!m) return null;
    const row = this.#row(m[1]);
    if (!row || !safeEqual(sha256Hex(raw!), row.token_hash)) return null;
    const now = this.clock.now();
    if (now >= row.expires_at) return null;
    if (row.last_used_at === null || now - row.last_used_at >= TOUCH_EVERY_MS) {
      this.store.run("UPDATE api_tokens SET last_used_at = ? WHERE id = ?", now, row.id);
    }
    return { id: row.user_id, username: row.username, email: row.email, role: row.role };
  }
}
