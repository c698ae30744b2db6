/**
 * The `users` table. Usernames are unique in any letter case (the column is
 * `COLLATE NOCASE`), which `insert()` checks before it writes so that the
 * conflict names its field. Ported to both engines (docs/architecture.md,
 * "Repositories"): the PostgreSQL twin is `pg_user_repo.ts`.
 */
import { ConflictError } from "../errors.ts";
import type { SqliteAsync } from "../store/sqlite_async.ts";
import { isUniqueViolation, type Store } from "../store/store.ts";
import type { PageWindow } from "../paging.ts";
import type { Role } from "./roles.ts";

/** A stored user; times are Unix milliseconds. */
export interface UserRecord {
  id: string;
  username: string;
  email: string;
  role: Role;
  passwordHash: string;
  /** Bumped with each password change; JWTs carry it. */
  authEpoch: number;
  createdAt: number;
  lastLogin: number | null;
}

/** What a new user's row is made of. */
export interface NewUserRecord {
  id: string;
  username: string;
  email: string;
  role: Role;
  passwordHash: string;
  createdAt: number;
}

export interface UserRepo {
  /** Adds a user; ConflictError (field `username`) when the name is taken in any letter case. */
  insert(user: NewUserRecord): Promise<void>;
  byId(id: string): Promise<UserRecord | undefined>;
  /** The user of `username` in any letter case. */
  byUsername(username: string): Promise<UserRecord | undefined>;
  /**
   * The users of `window` (default: all), oldest first, then by name in any
   * letter case (ASCII folded); keyset key [created_at, username].
   */
  list(window?: PageWindow): Promise<UserRecord[]>;
  count(): Promise<number>;
  countWithRole(role: Role): Promise<number>;
  setLastLogin(id: string, at: number): Promise<void>;
  /** Stores a new hash and bumps the auth epoch; false when the user does not exist. */
  setPasswordHash(id: string, hash: string, at: number): Promise<boolean>;
  setRole(id: string, role: Role, at: number): Promise<void>;
}

/** A row as both engines return it. */
export interface UserRow {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  auth_epoch: number;
  created_at: number;
  last_login: number | null;
}

export const COLUMNS =
  "id, username, email, password_hash, role, auth_epoch, created_at, last_login";

export const toRecord = (r: UserRow): UserRecord => ({
  id: r.id,
  username: r.username,
  email: r.email,
  role: r.role,
  passwordHash: r.password_hash,
  authEpoch: r.auth_epoch,
  createdAt: r.created_at,
  lastLogin: r.last_login,
});

/** The conflict of a taken username, the same on both engines. */
export const taken = (username: string) =>
  new ConflictError(`User "${username}" already exists`, {
    field: "username",
    code: "duplicate_username",
  });

export class SqliteUserRepo implements UserRepo {
  constructor(private readonly db: SqliteAsync) {}

  insert(u: NewUserRecord): Promise<void> {
    return this.db.run((store) => {
      if (byUsername(store, u.username)) throw taken(u.username);
      try {
        store.run(
          "INSERT INTO users (id, username, email, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          u.id,
          u.username,
          u.email,
          u.passwordHash,
          u.role,
          u.createdAt,
          u.createdAt,
        );
      } catch (err) {
        // Another process sharing the file may have added the name since the check.
        if (isUniqueViolation(err)) throw taken(u.username);
        throw err;
      }
    });
  }

  byId(id: string): Promise<UserRecord | undefined> {
    return this.db.run((store) => {
      const row = store.get<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = ?`, id);
      return row && toRecord(row);
    });
  }

  byUsername(username: string): Promise<UserRecord | undefined> {
    return this.db.run((store) => byUsername(store, username));
  }

  list(window: PageWindow = { offset: 0 }): Promise<UserRecord[]> {
    const [at, name] = window.after ?? [Number.MIN_SAFE_INTEGER, ""];
    return this.db.run((store) =>
      store.all<UserRow>(
        `SELECT ${COLUMNS} FROM users WHERE (created_at, username) > (?, ?)
         ORDER BY created_at, username LIMIT ? OFFSET ?`,
        at,
        name,
        window.limit ?? -1,
        window.offset,
      ).map(toRecord)
    );
  }

  count(): Promise<number> {
    return this.db.run((store) => store.get<{ n: number }>("SELECT count(*) AS n FROM users")!.n);
  }

  countWithRole(role: Role): Promise<number> {
    return this.db.run((store) =>
      store.get<{ n: number }>("SELECT count(*) AS n FROM users WHERE role = ?", role)!.n
    );
  }

  setLastLogin(id: string, at: number): Promise<void> {
    return this.db.run((store) => {
      store.run("UPDATE users SET last_login = ? WHERE id = ?", at, id);
    });
  }

  setPasswordHash(id: string, hash: string, at: number): Promise<boolean> {
    return this.db.run((store) =>
      store.run(
        "UPDATE users SET password_hash = ?, auth_epoch = auth_epoch + 1, updated_at = ? WHERE id = ?",
        hash,
        at,
        id,
      ).changes > 0
    );
  }

  setRole(id: string, role: Role, at: number): Promise<void> {
    return this.db.run((store) => {
      store.run("UPDATE users SET role = ?, updated_at = ? WHERE id = ?", role, at, id);
    });
  }
}

function byUsername(store: Store, username: string): UserRecord | undefined {
  const row = store.get<UserRow>(`SELECT ${COLUMNS} FROM users WHERE username = ?`, username);
  return row && toRecord(row);
}
