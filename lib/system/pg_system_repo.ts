/** The system overview's reads on PostgreSQL: the twin of `SqliteSystemRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import {
  type CountRow,
  type PgServerProbe,
  type SystemCounts,
  type SystemRepo,
  toCounts,
} from "./system_repo.ts";

export class PgSystemRepo implements SystemRepo {
  readonly probe: PgServerProbe;

  constructor(private readonly db: PgAsync) {
    this.probe = {
      engine: "postgres",
      connections: async () => {
        const [r] = await this.db.sql<{ open: number; max: number }[]>`
          SELECT (SELECT count(*) FROM pg_stat_activity)::int AS open,
                 current_setting('max_connections')::int AS max`;
        return { open: Number(r.open), max: Number(r.max) };
      },
      serverVersion: async () => {
        const [r] = await this.db.sql<
          { v: string }[]
        >`SELECT current_setting('server_version') AS v`;
        return r.v;
      },
    };
  }

  async ping(): Promise<void> {
    await this.db.sql`SELECT 1`;
  }

  async counts(now: number): Promise<SystemCounts> {
    const [r] = await this.db.sql<CountRow[]>`
      SELECT (SELECT count(*) FROM users) AS users,
        (SELECT count(*) FROM sessions WHERE expires_at > ${now}) AS sessions,
        (SELECT count(*) FROM api_tokens) AS tokens,
        (SELECT count(*) FROM audit) AS audit`;
    return toCounts(r);
  }

  schemaVersion(): Promise<number> {
    return this.db.store.version();
  }
}
