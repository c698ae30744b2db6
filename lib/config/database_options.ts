/**
 * The shared PostgreSQL store (issue 27, docs/scaling.md). Part of `OPTIONS`,
 * in `--help` order. Without a URL the embedded SQLite store is used.
 */
import { ConfigError } from "../errors.ts";
import { integerOption, type Option } from "./option.ts";

export const DATABASE_OPTIONS: Option[] = [
  {
    env: "PALISADE_DATABASE_URL",
    flag: "--database-url",
    default: null,
    description:
      "PostgreSQL store `postgres://user:password@host:port/database` instead of the embedded SQLite file, shared by any number of instances (docs/scaling.md)",
    apply: (c, v, n) => {
      let url: URL | null = null;
      try {
        url = new URL(v);
      } catch { /* reported below */ }
      // The value may hold a password: the message never repeats it.
      if (!url || !["postgres:", "postgresql:"].includes(url.protocol) || !url.hostname) {
        throw new ConfigError(n, "expected a postgres:// or postgresql:// URL with a host");
      }
      c.database.url = v;
    },
  },
  integerOption(
    "PALISADE_DATABASE_POOL_SIZE",
    10,
    [1, 1000],
    "Connections each instance keeps open to PostgreSQL",
    (c, n) => (c.database.poolSize = n),
  ),
  integerOption(
    "PALISADE_DATABASE_STATEMENT_TIMEOUT_MS",
    5000,
    [0, 3_600_000],
    "PostgreSQL cancels a statement running longer than this (0: no limit)",
    (c, n) => (c.database.statementTimeoutMs = n),
  ),
];
