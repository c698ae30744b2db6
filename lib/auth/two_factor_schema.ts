/** Zod schemas of two-factor sign-in at the API edge (lib/auth/two_factor.ts). */
import { z } from "zod";

export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  pending: z.boolean(),
  recovery_codes_left: z.number().int(),
  /** True when the user's role requires two-factor sign-in. */
  required: z.boolean(),
});

export const EnrolmentSchema = z.object({
  secret: z.string(),
  uri: z.string(),
  qr_svg: z.string(),
  qr_data_url: z.string(),
});

export const CodeInput = z.object({ code: z.string().min(1).max(64) });

export const RecoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });

/** What an administrator's reset of a user's second factors removed (lib/auth/two_factor_admin.ts). */
export const TwoFactorResetSchema = z.object({
  username: z.string(),
  totp_removed: z.boolean(),
  passkeys_removed: z.number().int(),
  ended_sessions: z.number().int(),
});
