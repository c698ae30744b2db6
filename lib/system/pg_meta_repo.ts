/** The `meta` table on PostgreSQL: the twin of `SqliteMetaRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import type { MetaRepo } from "./meta_repo.ts";

export class PgMetaRepo implements MetaRepo {
  constructor(private readonly db: PgAsync) {}

  async get(key: string): Promise<string | undefined> {
    const [row] = await this.db.sql<{ value: string }[]>`
      SELECT value FROM meta WHERE key = ${key}`;
    return row?.value;
  }

  async insertIfAbsent(key: string, value: string): Promise<void> {
    // Two instances starting at once: the first insert wins, the other reads it back.
    await this.db.sql`
      INSERT INTO meta (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO NOTHING`;
  }
}
