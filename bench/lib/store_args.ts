/**
 * The store a benchmark's servers run on, from its arguments:
 * `--database-url <url>` (PostgreSQL, docs/scaling.md) and `--instances <n>`
 * (servers on that one database); the embedded SQLite store without them.
 */
export interface StoreArgs {
  /** Environment for each server process. */
  env: Record<string, string>;
  instances: number;
  /** For the printed report; never holds the URL's password. */
  label: string;
}

export function storeArgs(args: string[]): StoreArgs {
  const value = (flag: string) => {
    const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    if (i < 0) return undefined;
    return args[i].includes("=") ? args[i].slice(args[i].indexOf("=") + 1) : args[i + 1];
  };
  const url = value("--database-url") ?? Deno.env.get("PALISADE_DATABASE_URL");
  const instances = Number(value("--instances") ?? 1);
  if (!Number.isInteger(instances) || instances < 1 || instances > 8) {
    throw new Error("--instances: expected 1 to 8");
  }
  if (!url) {
    if (instances > 1) throw new Error("--instances above 1 needs --database-url (PostgreSQL)");
    return { env: {}, instances, label: "SQLite (embedded)" };
  }
  const u = new URL(url);
  return {
    env: { PALISADE_DATABASE_URL: url },
    instances,
    label: `PostgreSQL ${u.host}${u.pathname}, ${instances} instance(s)`,
  };
}
