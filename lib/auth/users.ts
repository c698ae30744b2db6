/**
 * Users shared by the tunnel API, the DNS API and the dashboard. Passwords
 * are hashed before the transaction opens (scrypt is slow: nothing but
 * repository calls is awaited inside a transaction, docs/architecture.md),
 * so a failed insert never leaves a hash behind.
 */
import { type PageInfo, type PageRequest, paginateAsync } from "../paging.ts";
import type { AuditLog } from "../audit/audit.ts";
import { type Clock, isoTime } from "../clock.ts";
import { NotFoundError, UnprocessableError } from "../errors.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import { hashPassword } from "./password.ts";
import type { Role } from "./roles.ts";
import { randomToken } from "./secret.ts";
import type { AuthUser, UserInfo } from "./user.ts";
import type { UserRecord, UserRepo } from "./user_repo.ts";

export interface NewUser {
  username: string;
  email: string;
  password: string;
  role: Role;
}

/** A user with what login needs; stays inside `lib/auth`. */
export interface UserCredentials {
  user: AuthUser;
  passwordHash: string;
  authEpoch: number;
}

const authUser = (r: UserRecord): AuthUser => ({
  id: r.id,
  username: r.username,
  email: r.email,
  role: r.role,
});

const userInfo = (r: UserRecord): UserInfo => ({
  ...authUser(r),
  created_at: isoTime(r.createdAt),
  last_login: r.lastLogin === null ? null : isoTime(r.lastLogin),
});

const notFound = (id: string) => new NotFoundError(`User "${id}" does not exist`);

export class UserService {
  constructor(
    private readonly repo: UserRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /** Creates a user; 409 (field `username`) when the username is taken. */
  async create(input: NewUser, actor: string): Promise<UserInfo> {
    const hash = await hashPassword(input.password);
    const id = crypto.randomUUID();
    const now = this.clock.now();
    await this.transactor.tx(async () => {
      await this.repo.insert({
        id,
        username: input.username,
        email: input.email,
        role: input.role,
        passwordHash: hash,
        createdAt: now,
      });
      await this.audit.add({
        actor,
        event_type: "user.created",
        message: `Created user "${input.username}" with role "${input.role}"`,
        resource_type: "user",
        resource_id: id,
      });
    });
    return this.get(id);
  }

  /** All users, oldest first. */
  async list(): Promise<UserInfo[]> {
    return (await this.repo.list()).map(userInfo);
  }

  /** GET /users: a page of users, oldest first, with the total (docs/api.md, "Pagination"). */
  async page(req: PageRequest): Promise<{ users: UserInfo[] } & PageInfo> {
    const { items, ...info } = await paginateAsync<UserRecord>(req, {
      kind: "users",
      shape: ["n", "s"],
      keyOf: (u) => [u.createdAt, u.username],
      rows: (w) => this.repo.list(w),
      count: () => this.repo.count(),
    });
    return { users: items.map(userInfo), ...info };
  }

  /** One user; 404 when unknown. */
  async get(id: string): Promise<UserInfo> {
    const r = await this.repo.byId(id);
    if (!r) throw notFound(id);
    return userInfo(r);
  }

  /** The user and its password hash, for login; undefined when unknown. */
  async credentials(username: string): Promise<UserCredentials | undefined> {
    const r = await this.repo.byUsername(username);
    return r && { user: authUser(r), passwordHash: r.passwordHash, authEpoch: r.authEpoch };
  }

  /** The user by id with its auth epoch, for token checks; undefined when unknown. */
  async byId(id: string): Promise<{ user: AuthUser; authEpoch: number } | undefined> {
    const r = await this.repo.byId(id);
    return r && { user: authUser(r), authEpoch: r.authEpoch };
  }

  /** How many users exist. */
  count(): Promise<number> {
    return this.repo.count();
  }

  /** Records a successful login time. */
  touchLogin(id: string): Promise<void> {
    return this.repo.setLastLogin(id, this.clock.now());
  }

  /**
   * Stores a new password hash and bumps the auth epoch, so every JWT issued
   * before stops working. Runs inside the caller's transaction.
   */
  async setPasswordHash(id: string, hash: string): Promise<void> {
    if (!(await this.repo.setPasswordHash(id, hash, this.clock.now()))) throw notFound(id);
  }

  /** Changes a user's role; an administrator cannot demote the last administrator. */
  async setRole(id: string, role: Role, actor: string): Promise<UserInfo> {
    await this.transactor.tx(async () => {
      const r = await this.repo.byId(id);
      if (!r) throw notFound(id);
      if (r.role === "administrator" && role !== "administrator") {
        if ((await this.repo.countWithRole("administrator")) <= 1) {
          throw new UnprocessableError(
            `Cannot demote "${r.username}": it is the last administrator`,
            "role",
          );
        }
      }
      await this.repo.setRole(id, role, this.clock.now());
      await this.audit.add({
        actor,
        event_type: "user.role_changed",
        message: `Changed the role of "${r.username}" from "${r.role}" to "${role}"`,
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
    if ((await this.count()) > 0) return { created: false, generatedPassword: null };
    const generated = password === null ? randomToken(18) : null;
    await this.create(
      { username, email: "", password: password ?? generated!, role: "administrator" },
      "system",
    );
    return { created: true, generatedPassword: generated };
  }
}
