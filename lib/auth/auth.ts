/**
 * Login, logout, password change and credential resolution, shared by the
 * tunnel API (cookie or API token), the DNS API (JWT) and the dashboard.
 */
import type { AuditLog } from "../audit/audit.ts";
import { ForbiddenError, UnauthorizedError, UnprocessableError } from "../errors.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { LoginLimiter } from "./login_limiter.ts";
import type { LoginTickets } from "./login_ticket.ts";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { passkeyRefused, type PasskeyService, type RelyingParty } from "./passkey/passkeys.ts";
import { hashPassword, verifyAgainstDummy, verifyPassword } from "./password.ts";
import type { SessionService } from "./sessions.ts";
import type { TokenService } from "./tokens.ts";
import type { TwoFactorService } from "./two_factor.ts";
import type { TwoFactorAdmin } from "./two_factor_admin.ts";
import type { AuthUser, UserInfo } from "./user.ts";
import type { UserService } from "./users.ts";

/** Where a request came from, for the limiter and the audit trail. */
export interface ClientMeta {
  /** The client's address as lib/net/client_address.ts derives it (trusted proxies honoured). */
  address: string;
  userAgent: string;
}

/** The second factor of a login, and whether the dashboard may sign in a user who must still enrol. */
export interface SecondFactor {
  /** A TOTP code or a recovery code; needed when the user has two-factor sign-in on. */
  totpCode?: string;
  /** Dashboard only: a user whose role requires 2FA but who has none signs in to enrol. */
  allowEnrolment?: boolean;
  /** Dashboard only: a passkey's assertion instead of a code (lib/auth/passkey/). */
  passkey?: { response: AuthenticationResponseJSON; rp: RelyingParty };
}

/** How a login was completed, for the audit trail. */
type Factor = "totp" | "recovery" | "passkey" | null;

/** A refused passkey as a failed login (null); any other error goes on up. */
function refusal(err: unknown): null {
  if (err instanceof UnauthorizedError) return null;
  throw err;
}

/** The throttle's key of sign-ins with a passkey only: no username is typed. */
const PASSKEY_LOGIN_KEY = "passkey-sign-in";

/** A resolved credential. */
export interface Authenticated {
  user: AuthUser;
  /** `api_key`: a scoped DNS API key (its principal is in the request state, `apiKey`). */
  via: "session" | "token" | "jwt" | "api_key";
  sessionId?: string;
  /** Expiry of the session (ms), when the credential is a session. */
  expiresAt?: number;
}

export class AuthService {
  /** Refuses password sign-in when it is turned off (lib/auth/oidc/providers.ts). */
  #passwordGate: () => Promise<void> = () => Promise.resolve();

  constructor(
    private readonly transactor: AsyncTransactor,
    private readonly users: UserService,
    readonly sessions: SessionService,
    readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly audit: AuditLog,
    readonly twoFactor: TwoFactorService,
    private readonly tickets: LoginTickets,
    readonly passkeys: PasskeyService,
    /** An administrator's view and reset of other users' second factors. */
    readonly twoFactorAdmin: TwoFactorAdmin,
  ) {}

  /** Sets the check every password sign-in passes first (single sign-on, docs/sso.md). */
  setPasswordGate(gate: () => Promise<void>): void {
    this.#passwordGate = gate;
  }

  /**
   * Checks a username and password under the login throttle
   * (login_limiter.ts): refused while the client's address waits, slowed down
   * while the username is under attack. Unknown users cost the same time as
   * known ones. Then the second factor (#secondFactor). Throws
   * UnauthorizedError, ForbiddenError or RateLimitError.
   */
  async checkPassword(
    username: string,
    password: string,
    client: ClientMeta,
    second: SecondFactor = {},
  ): Promise<UserInfo> {
    await this.#passwordGate();
    const release = await this.limiter.begin(username, client.address);
    try {
      await this.limiter.slowDown(username);
      const creds = await this.users.credentials(username);
      const ok = creds
        ? await verifyPassword(password, creds.passwordHash)
        : await verifyAgainstDummy(password);
      if (!ok || !creds) {
        await this.limiter.fail(username, client.address);
        await this.audit.add({
          actor: "anonymous",
          event_type: "auth.login_failed",
          // Only names of real users: people sometimes type a password into the username field.
          message: creds
            ? `Failed login for "${creds.user.username}" from ${client.address}`
            : `Failed login for an unknown username from ${client.address}`,
          resource_type: "user",
          resource_id: creds?.user.id ?? "",
        });
        throw new UnauthorizedError("Invalid username or password");
      }
      const factor = await this.#secondFactor(creds.user, username, client, second);
      return await this.#succeeded(creds.user, username, client, factor);
    } finally {
      release();
    }
  }

  async #succeeded(
    user: AuthUser,
    username: string,
    client: ClientMeta,
    factor: Factor,
  ): Promise<UserInfo> {
    await this.transactor.tx(async () => {
      await this.limiter.succeed(username, client.address);
      await this.users.touchLogin(user.id);
      await this.audit.add({
        actor: user.username,
        event_type: "auth.login",
        message: `Logged in from ${client.address}${
          factor === "recovery"
            ? " with a recovery code"
            : factor === "passkey"
            ? " with a passkey"
            : ""
        }`,
        resource_type: "user",
        resource_id: user.id,
      });
    });
    return await this.users.get(user.id);
  }

  /**
   * Dashboard sign-in, step one: a session, or, for a user with two-factor
   * sign-in on who sent no code, a ticket for the page asking for it
   * (login_ticket.ts).
   */
  async loginStep(
    username: string,
    password: string,
    client: ClientMeta,
    second: SecondFactor,
  ): Promise<{ user: UserInfo; cookie: string } | { ticket: string }> {
    try {
      return await this.login(username, password, client, second);
    } catch (err) {
      if (!(err instanceof UnauthorizedError) || err.code !== "totp_required") throw err;
      // Only reached after the right password.
      const found = await this.users.byId((await this.users.credentials(username))!.user.id);
      return { ticket: await this.tickets.issue(found!.user.id, found!.authEpoch) };
    }
  }

  /** The user a genuine, unexpired ticket of step one names; null otherwise. */
  async ticketUser(ticket: string): Promise<string | null> {
    const t = await this.tickets.verify(ticket);
    const found = t && await this.users.byId(t.userId);
    return found && found.authEpoch === t.authEpoch ? found.user.id : null;
  }

  /**
   * Dashboard sign-in, step two: the code or a passkey's assertion with the
   * ticket of step one, under the login throttle.
   */
  async loginWithTicket(
    ticket: string,
    second: Pick<SecondFactor, "totpCode" | "passkey">,
    client: ClientMeta,
  ): Promise<{ user: UserInfo; cookie: string }> {
    // The ticket stands for a right password: void once passwords are turned off.
    await this.#passwordGate();
    const t = await this.tickets.verify(ticket);
    const found = t && await this.users.byId(t.userId);
    if (!t || !found || found.authEpoch !== t.authEpoch) {
      throw new UnauthorizedError("The sign-in has expired; enter your password again", {
        code: "ticket_expired",
      });
    }
    const { user } = found;
    const release = await this.limiter.begin(user.username, client.address);
    let info: UserInfo;
    try {
      // The ticket stands for the password: the code is all that is left to guess, from anywhere.
      await this.limiter.slowDown(user.username);
      const factor = await this.#secondFactor(user, user.username, client, {
        totpCode: second.totpCode ?? "",
        passkey: second.passkey,
      });
      info = await this.#succeeded(user, user.username, client, factor);
    } finally {
      release();
    }
    const session = await this.sessions.create(user.id, client);
    return { user: info, cookie: session.cookie };
  }

  /**
   * The second factor of a user whose password was right. With 2FA on, a
   * code must come (its absence is not a failure: the password was right)
   * and be valid (a wrong one counts as a failed login). Without 2FA, a user
   * whose role requires it is refused unless `allowEnrolment`.
   */
  async #secondFactor(
    user: AuthUser,
    username: string,
    client: ClientMeta,
    second: SecondFactor,
  ): Promise<Factor> {
    if (!(await this.twoFactor.hasSecondFactor(user.id))) {
      if (!second.allowEnrolment && (await this.twoFactor.requiredFor(user))) {
        throw new ForbiddenError(
          `Two-factor sign-in is required for the "${user.role}" role; turn it on from the dashboard's Security page`,
          { code: "two_factor_enrolment_required" },
        );
      }
      return null;
    }
    if (second.passkey) {
      const { response, rp } = second.passkey;
      const ok = await this.passkeys.authenticate(response, rp, user.id).then(
        () => true,
        refusal,
      );
      if (ok) return "passkey";
    } else if (!second.totpCode) {
      throw new UnauthorizedError("A two-factor code is required", {
        field: "totp_code",
        code: "totp_required",
      });
    }
    const used = second.totpCode && await this.twoFactor.verify(user.id, second.totpCode);
    if (used) return used;
    await this.limiter.fail(username, client.address);
    await this.audit.add({
      actor: "anonymous",
      event_type: "auth.login_failed",
      message: `Failed two-factor ${
        second.passkey ? "passkey" : "code"
      } for "${user.username}" from ${client.address}`,
      resource_type: "user",
      resource_id: user.id,
    });
    if (second.passkey) throw passkeyRefused();
    throw new UnauthorizedError("Invalid two-factor code", {
      field: "totp_code",
      code: "totp_invalid",
    });
  }

  /**
   * Dashboard sign-in with a passkey only (a discoverable credential whose
   * authenticator verified the user), under the login throttle: a session.
   */
  async loginWithPasskey(
    response: AuthenticationResponseJSON,
    rp: RelyingParty,
    client: ClientMeta,
  ): Promise<{ user: UserInfo; cookie: string }> {
    const release = await this.limiter.begin(PASSKEY_LOGIN_KEY, client.address);
    let info: UserInfo;
    try {
      const userId = await this.passkeys.authenticate(response, rp).catch(refusal);
      const found = userId ? await this.users.byId(userId) : undefined;
      if (!found) {
        await this.limiter.fail(PASSKEY_LOGIN_KEY, client.address);
        await this.audit.add({
          actor: "anonymous",
          event_type: "auth.login_failed",
          message: `Failed passkey sign-in from ${client.address}`,
          resource_type: "user",
          resource_id: userId ?? "",
        });
        throw passkeyRefused();
      }
      info = await this.#succeeded(found.user, PASSKEY_LOGIN_KEY, client, "passkey");
    } finally {
      release();
    }
    const session = await this.sessions.create(info.id, client);
    return { user: info, cookie: session.cookie };
  }

  /** Logs in and starts a cookie session. */
  async login(
    username: string,
    password: string,
    client: ClientMeta,
    second: SecondFactor = {},
  ): Promise<{ user: UserInfo; cookie: string; expiresAt: number }> {
    const user = await this.checkPassword(username, password, client, second);
    const session = await this.sessions.create(user.id, client);
    return { user, cookie: session.cookie, expiresAt: session.expiresAt };
  }

  /** Ends one cookie session. */
  async logout(auth: Authenticated): Promise<void> {
    if (!auth.sessionId) return;
    await this.transactor.tx(async () => {
      await this.sessions.end(auth.sessionId!);
      await this.audit.add({
        actor: auth.user.username,
        event_type: "auth.logout",
        message: "Logged out",
        resource_type: "user",
        resource_id: auth.user.id,
      });
    });
  }

  /**
   * Sets a new password after checking the current one and ends every session
   * of the user (and, through the auth epoch, every DNS API JWT).
   */
  async changePassword(
    user: AuthUser,
    current: string,
    next: string,
    client: ClientMeta,
  ): Promise<{ endedSessions: number }> {
    // Guessing the current password from a stolen session is limited like logins.
    const key = `password-change:${user.id}`;
    const release = await this.limiter.begin(key, client.address);
    try {
      const creds = await this.users.credentials(user.username);
      if (!creds || !(await verifyPassword(current, creds.passwordHash))) {
        await this.limiter.fail(key, client.address);
        throw new UnprocessableError("Current password is incorrect", "current_password");
      }
      await this.limiter.succeed(key, client.address);
    } finally {
      release();
    }
    if (current === next) {
      throw new UnprocessableError(
        "New password must differ from the current one",
        "new_password",
      );
    }
    const hash = await hashPassword(next);
    let ended = 0;
    await this.transactor.tx(async () => {
      await this.users.setPasswordHash(user.id, hash);
      ended = await this.sessions.endAllForUser(user.id);
      await this.audit.add({
        actor: user.username,
        event_type: "auth.password_changed",
        message: `Changed the password and ended ${ended} session(s)`,
        resource_type: "user",
        resource_id: user.id,
      });
    });
    return { endedSessions: ended };
  }

  /**
   * Resolves a session cookie or an API bearer token; null when neither is
   * valid. `touch: false` checks without counting as activity.
   */
  async authenticate(
    cred: { cookie?: string; bearer?: string },
    touch = true,
  ): Promise<Authenticated | null> {
    if (cred.bearer) {
      const user = await this.tokens.resolve(cred.bearer);
      return user ? { user, via: "token" } : null;
    }
    const session = await this.sessions.resolve(cred.cookie, touch);
    return session
      ? { user: session.user, via: "session", sessionId: session.id, expiresAt: session.expiresAt }
      : null;
  }
}
