/**
 * The store a benchmark's servers run on, from its arguments:
 * `--database-url <url>` (PostgreSQL, docs/scaling.md; `temp` starts a
 * throwaway cluster for the run, tests/helpers/postgres.ts) and
 * `--instances <n>` (servers on that one database); the embedded SQLite
 * store without them.
 */
import { startPostgres } from "../../tests/helpers/postgres.ts";

export interface StoreArgs extends AsyncDisposable {
  /** Environment for each server process. */
  env: Record<string, string>;
  instances: number;
  /** For the printed report; never holds the URL's password. */
  label: string;
}

function value(args: string[], flag: string): string | undefined {
  const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (i < 0) return undefined;
  return args[i].includes("=") ? args[i].slice(args[i].indexOf("=") + 1) : args[i + 1];
}

export async function storeArgs(args: string[]): Promise<StoreArgs> {
  const given = value(args, "--database-url") ?? Deno.env.get("PALISADE_DATABASE_URL");
  const instances = Number(value(args, "--instances") ?? 1);
  if (!Number.isInteger(instances) || instances < 1 || instances > 8) {
    throw new Error("--instances: expected 1 to 8");
  }
  const none = { async [Symbol.asyncDispose]() {} };
  if (!given) {
    if (instances > 1) throw new Error("--instances above 1 needs --database-url (PostgreSQL)");
    return { env: {}, instances, label: "SQLite (embedded)", ...none };
  }
  const cluster = given === "temp" ? await startPostgres() : null;
  const url = cluster?.url ?? given;
  const u = new URL(url);
  return {
    env: { PALISADE_DATABASE_URL: url },
    instances,
    label: `PostgreSQL ${
      cluster ? "(throwaway cluster) " : ""
    }${u.host}${u.pathname}, ${instances} instance(s)`,
    async [Symbol.asyncDispose]() {
      await cluster?.[Symbol.asyncDispose]();
    },
  };
}
