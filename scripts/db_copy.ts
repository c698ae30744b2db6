/**
 * `deno task db:copy --from <sqlite path> --to <postgres url> [--force]`:
 * copies every table of a Palisade SQLite store into a PostgreSQL database
 * (lib/store/pg/copy.ts; docs/scaling.md, "Moving to PostgreSQL"). Stop the
 * server first so the file does not change during the copy. Exit codes:
 * 0 copied, 1 refused or failed (nothing written), 2 bad arguments.
 */
import { DomainError } from "../lib/errors.ts";
import { copySqliteToPg } from "../lib/store/pg/copy.ts";

const USAGE =
  "usage: deno task db:copy --from <sqlite path> [--to <postgres url>, default PALISADE_DATABASE_URL] [--force]";

function parseArgs(args: string[]): { from: string; to: string; force: boolean } | null {
  const out: Record<string, string> = {};
  let force = false;
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    if (flag === "--force") force = true;
    else if (flag === "--from" || flag === "--to") {
      const value = inline ?? args[++i];
      if (value === undefined || value === "") return null;
      out[flag.slice(2)] = value;
    } else return null;
  }
  // `deno task` echoes its command line: a URL with a password is better passed in the environment.
  const to = out.to ?? Deno.env.get("PALISADE_DATABASE_URL");
  return out.from && to ? { from: out.from, to, force } : null;
}

async function main(): Promise<number> {
  const args = parseArgs(Deno.args);
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  try {
    const report = await copySqliteToPg(args);
    for (const t of report.tables) console.log(`${t.name.padEnd(24)} ${t.rows}`);
    const total = report.tables.reduce((n, t) => n + t.rows, 0);
    console.log(`copied ${total} rows in ${report.tables.length} tables; row counts checked`);
    return 0;
  } catch (err) {
    // The target URL may hold a password: only our own messages are printed whole.
    if (err instanceof DomainError) console.error(`db:copy: ${err.message}`);
    else console.error(`db:copy: failed, nothing was written: ${(err as Error).message}`);
    return 1;
  }
}

Deno.exit(await main());
