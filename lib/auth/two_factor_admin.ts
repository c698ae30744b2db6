/**
 * An administrator's side of other users' second factors, for the "lost
 * phone" case: what each user has (TOTP on or off, how many passkeys; never
 * a secret), and a reset that removes the TOTP enrolment, the recovery codes
 * and every passkey of one user in one transaction. The reset also ends the
 * user's sessions, as a password change does: a lost phone may carry a
 * signed-in dashboard. It bumps nothing else (not the auth epoch: the
 * password, API tokens and DNS API JWTs stay valid). docs/security.md,
 * "Two-factor sign-in".
 */
import type { AuditLog } from "../audit/audit.ts";
import { ConflictError, ForbiddenError } from "../errors.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import type { PasskeyRepo } from "./passkey/passkey_repo.ts";
import type { SessionService } from "./sessions.ts";
import type { TotpRepo } from "./totp_repo.ts";
import type { AuthUser } from "./user.ts";
import type { UserService } from "./users.ts";

/** A user's second factors as the Users page shows them. */
export interface SecondFactors {
  totp: boolean;
  passkeys: number;
}

/** What a reset removed. */
export interface TwoFactorResetResult {
  username: string;
  totp_removed: boolean;
  passkeys_removed: number;
  ended_sessions: number;
}

export class TwoFactorAdmin {
  constructor(
    private readonly totp: TotpRepo,
    private readonly passkeys: PasskeyRepo,
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
  ) {}

  /** The second factors of one user. */
  async of(userId: string): Promise<SecondFactors> {
    return {
      totp: !!(await this.totp.byUser(userId))?.enabledAt,
      passkeys: await this.passkeys.count(userId),
    };
  }

  /** The second factors of each of `userIds`, by id: one query per kind, whatever their number. */
  async ofEach(userIds: readonly string[]): Promise<Record<string, SecondFactors>> {
    const totp = await this.totp.enabledUsers(userIds);
    const passkeys = await this.passkeys.countsByUser(userIds);
    const out: Record<string, SecondFactors> = {};
    for (const id of userIds) out[id] = { totp: totp.has(id), passkeys: passkeys.get(id) ?? 0 };
    return out;
  }

  /**
   * Removes every second factor of user `targetId` (404 when unknown) and
   * ends its sessions. Refused for one's own account (403: the Security page
   * does that with a code) and for a user with no second factor (409).
   */
  async reset(targetId: string, actor: AuthUser): Promise<TwoFactorResetResult> {
    const target = await this.users.get(targetId);
    if (target.id === actor.id) {
      throw new ForbiddenError(
        "Your own second factors cannot be reset here; use the Security page",
        { code: "own_account" },
      );
    }
    return await this.transactor.tx(async () => {
      const totp = await this.totp.byUser(target.id);
      const had = await this.of(target.id);
      if (!had.totp && had.passkeys === 0) {
        throw new ConflictError(`User "${target.username}" has no second factor to reset`, {
          code: "no_second_factor",
        });
      }
      // A pending enrolment goes too: its secret was never confirmed.
      if (totp) await this.totp.remove(target.id);
      const removed = await this.passkeys.removeAll(target.id);
      const ended = await this.sessions.endAllForUser(target.id);
      await this.audit.add({
        actor: actor.username,
        event_type: "auth.two_factor_reset",
        message: `Reset the second factors of "${target.username}" (${
          had.totp ? "TOTP removed" : "no TOTP"
        }, ${removed} passkey(s) removed) and ended ${ended} session(s)`,
        resource_type: "user",
        resource_id: target.id,
      });
      return {
        username: target.username,
        totp_removed: had.totp,
        passkeys_removed: removed,
        ended_sessions: ended,
      };
    });
  }
}
