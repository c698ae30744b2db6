/**
 * Users shared by the tunnel API, the DNS API and the dashboard. Passwords
 * are hashed before the transaction opens (scrypt is slow and asynchronous;
 * transactions are synchronous), so a failed insert never leaves a hash behind.
 */
import type { AuditLog } from "../audit/audit.ts";
import { type Clock, isoTime } from "../clock.ts";
import { ConflictError, NotFoundError, UnprocessableError } from "../errors.ts";
import { isUniqueViolation, type Store } from "../store/store.ts";
import { hashPassword } from "./password.ts";
import type { Role } from "./roles.ts";
import { randomToken } from "./secret.ts";
import type { AuthUser, UserInfo } from "./user.ts";

export interface NewUser {
  username: string;
  email: string;
  password: string;
  role: Role;
}

interface UserRow {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  role: Role;
  auth_epoch: number;
  created_at: number;
  last_login: number | null;
}

/** A user with what login needs; stays inside `lib/auth`. */
export interface UserCredentials {
  user: AuthUser;
  passwordHash: string;
  authEpoch: number;
}

const authUser = (r: UserRow): AuthUser => ({
  id: r.id,
  username: r.username,
  email: r.email,
  role: r.role,
});

const userInfo = (r: UserRow): UserInfo => ({
  ...authUser(r),
  created_at: isoTime(r.created_at),
  last_login: r.last_login === null ? null : isoTime(r.last_login),
});

export class UserService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** Creates a user; 409 when the username is taken. */
  async create(input: NewUser, actor: string): Promise<UserInfo> {
    const hash = await hashPassword(input.password);
    const id = crypto.randomUUID();
    const now = this.clock.now();
    try {
      this.store.tx(() => {
        this.store.run(
          "INSERT INTO users (id, username, email, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
          id,
          input.username,
          input.email,
          hash,
          input.role,
          now,
          now,
        );
        this.audit.record({
          actor,
          event_type: "user.created",
          message: `Created user "${input.username}" with role "${input.role}"`,
          resource_type: "user",
          resource_id: id,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new ConflictError(`User "${input.username}" already exists`);
      }
      throw err;
    }
    return this.get(id);
  }

  /** All users, oldest first. */
  list(): UserInfo[] {
    return this.store.all<UserRow>("SELECT * FROM users ORDER BY created_at, username").map(
      userInfo,
    );
  }

  /** One user; 404 when unknown. */
  get(id: string): UserInfo {
    const row = this.store.get<UserRow>("SELECT * FROM users WHERE id = ?", id);
    if (!row) throw new NotFoundError(`User "${id}" does not exist`);
    return userInfo(row);
  }

  /** The user and its password hash, for login; undefined when unknown. */
  credentials(username: string): UserCredentials | undefined {
    const row = this.store.get<UserRow>("SELECT * FROM users WHERE username = ?", username);
    return row &&
      { user: authUser(row), passwordHash: row.password_hash, authEpoch: row.auth_epoch };
  }

  /** The user by id with its auth epoch, for token checks; undefined when unknown. */
  byId(id: string): { user: AuthUser; authEpoch: number } | undefined {
    const row = this.store.get<UserRow>("SELECT * FROM users WHERE id = ?", id);
    return row && { user: authUser(row), authEpoch: row.auth_epoch };
  }

  count(): number {
    return this.store.get<{ n: number }>("SELECT count(*) AS n FROM users")!.n;
  }

  /** Records a successful login time. */
  touchLogin(id: string): void {
    this.store.run("UPDATE users SET last_login = ? WHERE id = ?", this.clock.now(), id);
  }

  /**
   * Stores a new password hash and bumps the auth epoch, so every JWT issued
   * before stops working. Runs inside the caller's transaction.
   */
  setPasswordHash(id: string, hash: string): void {
    const { changes } = this.store.run(
      "UPDATE users SET password_hash = ?, auth_epoch = auth_epoch + 1, updated_at = ? WHERE id = ?",
      hash,
      this.clock.now(),
      id,
    );
    if (changes === 0) throw new NotFoundError(`User "${id}" does not exist`);
  }

  /** Changes a user's role; an administrator cannot demote the last administrator. */
  setRole(id: string, role: Role, actor: string): UserInfo {
    this.store.tx(() => {
      const row = this.store.get<UserRow>("SELECT * FROM users WHERE id = ?", id);
      if (!row) throw new NotFoundError(`User "${id}" does not exist`);
      if (row.role === "administrator" && role !== "administrator") {
        const admins = this.store.get<{ n: number }>(
          "SELECT count(*) AS n FROM users WHERE role = 'administrator'",
        )!.n;
        if (admins <= 1) {
          throw new UnprocessableError(
            `Cannot demote "${row.username}": it is the last administrator`,
          );
        }
      }
      this.store.run(
        "UPDATE users SET role = ?, updated_at = ? WHERE id = ?",
        role,
        this.clock.now(),
        id,
      );
      this.audit.record({
        actor,
        event_type: "user.role_changed",
        message: `Changed the role of "${row.username}" from "${row.role}" to "${role}"`,
        resource_type: "user",
        resource_id: id,
      });
    });
    return this.get(id);
  }

  /**
   * Creates the first administrator when no user exists. Returns the password
   * only when it was generated here, so the caller can print it once.
   */
  async ensureFirstAdministrator(
    username: string,
    password: string | null,
  ): Promise<{ created: boolean; generatedPassword: string | null }> {
    if (this.count() > 0) return { created: false, generatedPassword: null };
    const generated = password === null ? randomToken(18) : null;
    await this.create(
      { username, email: "", password: password ?? generated!, role: "administrator" },
      "system",
    );
    return { created: true, generatedPassword: generated };
  }
}
