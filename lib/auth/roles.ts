/** The three roles, lowest first; each role can do everything the ones below it can. */
export const ROLES = ["viewer", "operator", "administrator"] as const;

export type Role = typeof ROLES[number];

/** True when `role` is `min` or above. */
export function roleAtLeast(role: Role, min: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(min);
}

/** True when `v` is one of the role names. */
export function isRole(v: unknown): v is Role {
  return typeof v === "string" && (ROLES as readonly string[]).includes(v);
}
