/**
 * The login-failure tables on PostgreSQL: the twin of
 * `SqliteLoginAttemptRepo`. SQLite's `COLLATE NOCASE` username column is
 * `lower(username)` here, which the `<table>_username` index covers.
 */
import type { PgAsync } from "../store/pg/pg_async.ts";
import type {
  CountRow,
  FailureCount,
  LoginAttemptRepo,
  LoginFailureTable,
} from "./login_attempt_repo.ts";

export class PgLoginAttemptRepo implements LoginAttemptRepo {
  constructor(
    private readonly db: PgAsync,
    private readonly table: LoginFailureTable = "login_failures",
  ) {}

  async failuresOfAddress(address: string, since: number): Promise<FailureCount> {
    const sql = this.db.sql;
    const [r] = await sql<CountRow[]>`
      SELECT count(*) AS n, max(at) AS newest FROM ${sql(this.table)}
      WHERE address = ${address} AND at > ${since}`;
    return { count: r.n, newest: r.newest };
  }

  async failuresOfPair(address: string, username: string, since: number): Promise<FailureCount> {
    const sql = this.db.sql;
    const [r] = await sql<CountRow[]>`
      SELECT count(*) AS n, max(at) AS newest FROM ${sql(this.table)}
      WHERE address = ${address} AND lower(username) = lower(${username}) AND at > ${since}`;
    return { count: r.n, newest: r.newest };
  }

  async countOfUsername(username: string, since: number): Promise<number> {
    const sql = this.db.sql;
    const [r] = await sql<{ n: number }[]>`
      SELECT count(*) AS n FROM ${sql(this.table)}
      WHERE lower(username) = lower(${username}) AND at > ${since}`;
    return r.n;
  }

  async add(username: string, address: string, at: number): Promise<void> {
    const sql = this.db.sql;
    await sql`INSERT INTO ${sql(this.table)} (username, address, at)
      VALUES (${username}, ${address}, ${at})`;
  }

  async deleteUpTo(cutoff: number): Promise<void> {
    const sql = this.db.sql;
    await sql`DELETE FROM ${sql(this.table)} WHERE at <= ${cutoff}`;
  }

  async clearPair(address: string, username: string): Promise<void> {
    const sql = this.db.sql;
    await sql`DELETE FROM ${sql(this.table)}
      WHERE address = ${address} AND lower(username) = lower(${username})`;
  }
}
