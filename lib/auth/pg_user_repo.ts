/**
 * The `users` table on PostgreSQL: the twin of `SqliteUserRepo`. SQLite's
 * `COLLATE NOCASE` is `lower(username)` here (the unique index
 * `users_username_nocase`), in lookups, in the order and in the keyset;
 * with the "C" collation both fold ASCII letters only, so both engines page
 * the same.
 */
import type { PageWindow } from "../paging.ts";
import { conflictOnUnique } from "../store/pg/errors.ts";
import type { PgAsync } from "../store/pg/pg_async.ts";
import type { Role } from "./roles.ts";
import {
  type NewUserRecord,
  taken,
  toRecord,
  type UserRecord,
  type UserRepo,
  type UserRow,
} from "./user_repo.ts";

export class PgUserRepo implements UserRepo {
  constructor(private readonly db: PgAsync) {}

  async insert(u: NewUserRecord): Promise<void> {
    // The check names the field as SQLite does; the index catches the race after it.
    if (await this.byUsername(u.username)) throw taken(u.username);
    const t = taken(u.username);
    const conflict = { message: t.message, field: t.field, code: t.code };
    try {
      await this.db.sql`
        INSERT INTO users (id, username, email, password_hash, role, created_at, updated_at)
        VALUES (${u.id}, ${u.username}, ${u.email}, ${u.passwordHash}, ${u.role},
                ${u.createdAt}, ${u.createdAt})`;
    } catch (err) {
      throw conflictOnUnique(err, { users_username_nocase: conflict }, conflict);
    }
  }

  async byId(id: string): Promise<UserRecord | undefined> {
    const [row] = await this.db.sql<UserRow[]>`
      SELECT id, username, email, password_hash, role, auth_epoch, created_at, last_login
      FROM users WHERE id = ${id}`;
    return row && toRecord(row);
  }

  async byUsername(username: string): Promise<UserRecord | undefined> {
    const [row] = await this.db.sql<UserRow[]>`
      SELECT id, username, email, password_hash, role, auth_epoch, created_at, last_login
      FROM users WHERE lower(username) = lower(${username})`;
    return row && toRecord(row);
  }

  async list(window: PageWindow = { offset: 0 }): Promise<UserRecord[]> {
    const [at, name] = window.after ?? [Number.MIN_SAFE_INTEGER, ""];
    const rows = await this.db.sql<UserRow[]>`
      SELECT id, username, email, password_hash, role, auth_epoch, created_at, last_login
      FROM users WHERE (created_at, lower(username)) > (${at}, lower(${name as string}))
      ORDER BY created_at, lower(username) LIMIT ${window.limit ?? null} OFFSET ${window.offset}`;
    return rows.map(toRecord);
  }

  async count(): Promise<number> {
    const [{ n }] = await this.db.sql<{ n: number }[]>`SELECT count(*) AS n FROM users`;
    return n;
  }

  async countWithRole(role: Role): Promise<number> {
    const [{ n }] = await this.db.sql<{ n: number }[]>`
      SELECT count(*) AS n FROM users WHERE role = ${role}`;
    return n;
  }

  async setLastLogin(id: string, at: number): Promise<void> {
    await this.db.sql`UPDATE users SET last_login = ${at} WHERE id = ${id}`;
  }

  async setPasswordHash(id: string, hash: string, at: number): Promise<boolean> {
    const r = await this.db.sql`
      UPDATE users SET password_hash = ${hash}, auth_epoch = auth_epoch + 1, updated_at = ${at}
      WHERE id = ${id}`;
    return r.count > 0;
  }

  async setRole(id: string, role: Role, at: number): Promise<void> {
    await this.db.sql`UPDATE users SET role = ${role}, updated_at = ${at} WHERE id = ${id}`;
  }
}
