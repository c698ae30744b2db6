/**
 * Two-factor sign-in: TOTP enrolment (secret, otpauth:// URI, QR code,
 * confirmed by a first code), ten one-time recovery codes (kept as SHA-256,
 * made anew with a current code), disabling with a code, and the second-factor check the logins call
 * (auth.ts). A code's time step is taken once; codes outside ±1 step are
 * refused (totp.ts). docs/api.md, "Two-factor sign-in".
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import { ConflictError, ForbiddenError } from "../errors.ts";
import type { AsyncTransactor } from "../store/async_transactor.ts";
import { qr } from "../tunnel/qr.ts";
import { sha256Hex } from "./secret.ts";
import { base32Encode, matchStep, otpauthUri } from "./totp.ts";
import type { TotpRepo } from "./totp_repo.ts";
import type { TotpSealer } from "./totp_seal.ts";
import type { AuthUser } from "./user.ts";

export const RECOVERY_CODES = 10;
const ISSUER = "Palisade";

/** What the security page and API show of a user's 2FA: never the secret. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** Enrolment started but not confirmed with a first code. */
  pending: boolean;
  recovery_codes_left: number;
}

/** What enrolment hands the user once: the secret for manual entry, the URI and its QR code. */
export interface Enrolment {
  secret: string;
  uri: string;
  qr_svg: string;
  qr_data_url: string;
}

/** A recovery code: ten base32 characters in two groups (50 random bits). */
function newRecoveryCode(): string {
  const s = base32Encode(crypto.getRandomValues(new Uint8Array(7))).slice(0, 10).toLowerCase();
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** The hash a recovery code is kept and looked up by: case and dashes do not matter. */
const recoveryHash = (code: string) => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ""));

export class TwoFactorService {
  /** Users the requirement does not apply to: single sign-on users (docs/sso.md). */
  #exempt: (userId: string) => Promise<boolean> = () => Promise.resolve(false);

  constructor(
    private readonly repo: TotpRepo,
    private readonly transactor: AsyncTransactor,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly sealer: TotpSealer,
    /** The stored `auth.two_factor_roles` setting (lib/settings/settings.ts). */
    private readonly requiredRoles: () => Promise<string | undefined>,
    /** Whether the user registered a passkey (lib/auth/passkey/): it counts as a second factor. */
    private readonly hasPasskey: (userId: string) => Promise<boolean> = () =>
      Promise.resolve(false),
  ) {}

  /** Sets which users the role requirement skips (their identity provider does MFA). */
  exemptWhen(exempt: (userId: string) => Promise<boolean>): void {
    this.#exempt = exempt;
  }

  /** True when the settings require two-factor sign-in of `user`'s role. */
  async requiredFor(user: AuthUser): Promise<boolean> {
    const roles = (await this.requiredRoles()) ?? "";
    return roles.split(",").includes(user.role) && !(await this.#exempt(user.id));
  }

  /** True when `user` must turn two-factor sign-in on before doing anything else. */
  async enrolmentRequired(user: AuthUser): Promise<boolean> {
    return (await this.requiredFor(user)) && !(await this.hasSecondFactor(user.id));
  }

  /** True when a password alone does not sign `userId` in: TOTP is on, or a passkey is registered. */
  async hasSecondFactor(userId: string): Promise<boolean> {
    return (await this.isEnabled(userId)) || (await this.hasPasskey(userId));
  }

  async status(userId: string): Promise<TwoFactorStatus> {
    const row = await this.repo.byUser(userId);
    return {
      enabled: !!row?.enabledAt,
      pending: !!row && !row.enabledAt,
      recovery_codes_left: row?.enabledAt ? await this.repo.recoveryCodesLeft(userId) : 0,
    };
  }

  async isEnabled(userId: string): Promise<boolean> {
    return !!(await this.repo.byUser(userId))?.enabledAt;
  }

  /** Starts (or restarts) enrolment; refused while 2FA is on (disable it first). */
  async begin(user: AuthUser): Promise<Enrolment> {
    if (await this.isEnabled(user.id)) {
      throw new ConflictError("Two-factor sign-in is already on; disable it first", {
        code: "two_factor_enabled",
      });
    }
    const secret = crypto.getRandomValues(new Uint8Array(20));
    const sealed = await this.sealer.seal(user.id, secret);
    await this.transactor.tx(() => this.repo.begin(user.id, sealed, this.clock.now()));
    return await this.#enrolment(user, secret);
  }

  /**
   * The enrolment waiting for its first code, shown again (its secret is not
   * yet in use); undefined when none waits.
   */
  async pendingEnrolment(user: AuthUser): Promise<Enrolment | undefined> {
    const row = await this.repo.byUser(user.id);
    if (!row || row.enabledAt) return undefined;
    return await this.#enrolment(user, await this.sealer.open(user.id, row.secret));
  }

  async #enrolment(user: AuthUser, secret: Uint8Array<ArrayBuffer>): Promise<Enrolment> {
    const uri = otpauthUri(ISSUER, user.username, secret);
    const image = await qr(uri);
    return { secret: base32Encode(secret), uri, qr_svg: image.svg, qr_data_url: image.data_url };
  }

  /** Confirms enrolment with a first valid code: 2FA is on; the recovery codes are returned once. */
  async confirm(user: AuthUser, code: string): Promise<{ recovery_codes: string[] }> {
    const row = await this.repo.byUser(user.id);
    if (!row || row.enabledAt) {
      throw new ConflictError("No two-factor enrolment is waiting for a code", {
        field: "code",
        code: "no_enrolment",
      });
    }
    const step = await matchStep(
      await this.sealer.open(user.id, row.secret),
      code.trim(),
      this.clock.now(),
    );
    if (step === null) throw invalidCode();
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.transactor.tx(async () => {
      if (!(await this.repo.enable(user.id, step, this.clock.now(), codes.map(recoveryHash)))) {
        throw new ConflictError("No two-factor enrolment is waiting for a code", {
          field: "code",
          code: "no_enrolment",
        });
      }
      await this.audit.add({
        actor: user.username,
        event_type: "auth.two_factor_enabled",
        message: "Turned two-factor sign-in on",
        resource_type: "user",
        resource_id: user.id,
      });
    });
    return { recovery_codes: codes };
  }

  /**
   * Ten new recovery codes for a user with 2FA on, after a current TOTP code
   * (not a recovery code: the codes being replaced must not vouch for their
   * successors); every earlier code stops working. Returned once.
   */
  async regenerateRecoveryCodes(
    user: AuthUser,
    code: string,
  ): Promise<{ recovery_codes: string[] }> {
    if (!(await this.isEnabled(user.id))) throw twoFactorOff();
    const c = code.replace(/\s/g, "");
    if (!/^\d{6}$/.test(c) || (await this.verify(user.id, c)) !== "totp") throw invalidCode();
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.transactor.tx(async () => {
      if (!(await this.repo.replaceRecoveryCodes(user.id, codes.map(recoveryHash)))) {
        throw twoFactorOff();
      }
      await this.audit.add({
        actor: user.username,
        event_type: "auth.recovery_codes_regenerated",
        message: `Made ${RECOVERY_CODES} new recovery codes; the earlier ones no longer work`,
        resource_type: "user",
        resource_id: user.id,
      });
    });
    return { recovery_codes: codes };
  }

  /** Turns 2FA off after checking a code (TOTP or recovery code). */
  async disable(user: AuthUser, code: string): Promise<void> {
    if (!(await this.verify(user.id, code))) throw invalidCode();
    await this.transactor.tx(async () => {
      await this.repo.remove(user.id);
      await this.audit.add({
        actor: user.username,
        event_type: "auth.two_factor_disabled",
        message: "Turned two-factor sign-in off",
        resource_type: "user",
        resource_id: user.id,
      });
    });
  }

  /**
   * Checks and uses up a second factor of an enabled user: a six-digit TOTP
   * code whose step was not taken before, or an unused recovery code.
   */
  async verify(userId: string, code: string): Promise<"totp" | "recovery" | null> {
    const row = await this.repo.byUser(userId);
    if (!row?.enabledAt) return null;
    const c = code.replace(/\s/g, "");
    if (/^\d{6}$/.test(c)) {
      const step = await matchStep(await this.sealer.open(userId, row.secret), c, this.clock.now());
      if (step === null) return null;
      return (await this.repo.claimStep(userId, step)) ? "totp" : null;
    }
    if (c.length > 64) return null;
    const used = await this.repo.useRecoveryCode(userId, recoveryHash(c), this.clock.now());
    return used ? "recovery" : null;
  }
}

function twoFactorOff(): ConflictError {
  return new ConflictError("Two-factor sign-in is off; turn it on first", {
    field: "code",
    code: "two_factor_off",
  });
}

/**
 * A code that does not match: 403, not 422 — the request is well formed, the
 * code is refused for what it is (as a wrong password is refused).
 */
function invalidCode(): ForbiddenError {
  return new ForbiddenError("Invalid two-factor code", { field: "code", code: "totp_invalid" });
}
