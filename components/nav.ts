/** Dashboard sections, in navigation order; `path` prefixes mark the current one. */
export const NAV = [
  { path: "/", label: "Overview" },
  { path: "/audit", label: "Audit" },
  { path: "/settings", label: "Settings" },
] as const;

/** True when `current` belongs to the section at `path`. */
export function isCurrent(path: string, current: string): boolean {
  return path === "/" ? current === "/" : current === path || current.startsWith(path + "/");
}
