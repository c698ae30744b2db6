/** Zod schemas of identity data at the API edge, shared by routes and forms. */
import { z } from "zod";
import { PASSWORD_MAX, PASSWORD_MIN } from "./password.ts";
import { ROLES } from "./roles.ts";
import { TOKEN_MAX_DAYS } from "./tokens.ts";

export const Username = z.string().regex(
  /^[A-Za-z0-9._@-]{1,64}$/,
  "must be 1-64 letters, digits or . _ @ -",
);

export const NewPassword = z.string().min(
  PASSWORD_MIN,
  `must be at least ${PASSWORD_MIN} characters`,
).max(
  PASSWORD_MAX,
);

export const LoginInput = z.object({
  username: z.string().min(1).max(256),
  password: z.string().min(1).max(PASSWORD_MAX),
  /** A TOTP code or a recovery code: required once the user has two-factor sign-in on. */
  totp_code: z.string().max(64).optional(),
});

export const UserInfoSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  created_at: z.string(),
  last_login: z.string().nullable(),
});

export const NewUserInput = z.object({
  username: Username,
  email: z.union([z.email(), z.literal("")]).default(""),
  password: NewPassword,
  role: z.enum(ROLES),
});

export const PasswordChangeInput = z.object({
  current_password: z.string().min(1).max(PASSWORD_MAX),
  new_password: NewPassword,
});

export const TokenCreateInput = z.object({
  name: z.string().trim().min(1).max(100),
  expires_in_days: z.number().int().min(1).max(TOKEN_MAX_DAYS),
});

export const TokenMetaSchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  user_id: z.string(),
  username: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  expired: z.boolean(),
});

export const SessionInfoSchema = z.object({
  user: UserInfoSchema,
  auth: z.enum(["session", "token", "jwt"]),
  expires_at: z.string().nullable(),
});

export const OkSchema = z.object({ success: z.boolean(), message: z.string() });
