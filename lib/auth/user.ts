import type { Role } from "./roles.ts";

/** The authenticated caller, as routes see it. */
export interface AuthUser {
  id: string;
  username: string;
  email: string;
  role: Role;
}

/** A user as listed by the APIs: never the password hash. */
export interface UserInfo extends AuthUser {
  created_at: string;
  last_login: string | null;
}
