/**
 * The two storage engines a repository contract runs against, like
 * lib/host/driver_contract_test.ts runs its cases against every host
 * driver: SQLite in a temporary file, and PostgreSQL in a throwaway cluster
 * (tests/helpers/postgres.ts: one cluster per test file, started on first
 * use, a fresh database per case). Without PostgreSQL its half prints the
 * SKIP line (or fails with PALISADE_REQUIRE_SYSTEM_TESTS=1).
 *
 * A contract file calls `repoContract(name, cases)` once; each case gets a
 * fresh, migrated `Engine` and builds the repository under test with
 * `engine.pick({ sqlite, postgres })`.
 */
import type { SQLInputValue } from "node:sqlite";
import type { AsyncTransactor } from "../../lib/store/async_transactor.ts";
import { PgAsync } from "../../lib/store/pg/pg_async.ts";
import { PgStore } from "../../lib/store/pg/pg_store.ts";
import { SqliteAsync } from "../../lib/store/sqlite_async.ts";
import { Store } from "../../lib/store/store.ts";
import { havePostgres, type PgCluster, startPostgres } from "../helpers/postgres.ts";

export type EngineName = "sqlite" | "postgres";

export interface Engine extends AsyncDisposable {
  name: EngineName;
  transactor: AsyncTransactor;
  /** The engine's own object: a repository of the right kind for this engine. */
  pick<T>(make: { sqlite: (db: SqliteAsync) => T; postgres: (db: PgAsync) => T }): T;
  /**
   * Raw SQL for a test's setup and checks, with `?` placeholders on both
   * engines; inside `transactor.tx()` it runs in that transaction.
   */
  raw<T = Record<string, unknown>>(sql: string, ...params: SQLInputValue[]): Promise<T[]>;
}

export type ContractCase = (engine: Engine) => Promise<void>;

interface EngineKind {
  name: EngineName;
  available(testName: string): boolean;
  open(): Promise<Engine>;
  /** Ends what the kind started for the file (the PostgreSQL cluster). */
  shutdown(): Promise<void>;
}

function sqliteKind(): EngineKind {
  return {
    name: "sqlite",
    available: () => true,
    async open() {
      const dir = await Deno.makeTempDir({ prefix: "palisade-contract-" });
      const store = Store.open(`${dir}/palisade.db`);
      const db = SqliteAsync.of(store);
      return {
        name: "sqlite",
        transactor: db,
        pick: (make) => make.sqlite(db),
        raw: (sql, ...params) => db.run((s) => s.all(sql, ...params)),
        async [Symbol.asyncDispose]() {
          store.close();
          await Deno.remove(dir, { recursive: true });
        },
      };
    },
    shutdown: () => Promise.resolve(),
  };
}

/** `?` placeholders as PostgreSQL's `$1, $2, …` (test SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

function postgresKind(): EngineKind {
  let cluster: PgCluster | null = null;
  let databases = 0;
  return {
    name: "postgres",
    available: (testName) => havePostgres(testName),
    async open() {
      cluster ??= await startPostgres();
      const name = `c${++databases}`;
      await cluster.createDatabase(name);
      const store = await PgStore.open({ url: cluster.urlOf(name), poolSize: 4 });
      const db = PgAsync.of(store);
      return {
        name: "postgres",
        transactor: db,
        pick: (make) => make.postgres(db),
        raw: async <T>(sql: string, ...params: SQLInputValue[]) =>
          [...await db.sql.unsafe(numbered(sql), params as never[])] as T[],
        [Symbol.asyncDispose]: () => store.close(),
      };
    },
    async shutdown() {
      await cluster?.stop();
      cluster = null;
    },
  };
}

/**
 * Registers one test per engine, `<name> contract (<engine>)`, with each
 * case as a step on a fresh engine.
 */
export function repoContract(name: string, cases: Record<string, ContractCase>): void {
  for (const kind of [sqliteKind(), postgresKind()]) {
    const testName = `${name} contract (${kind.name})`;
    Deno.test(testName, async (t) => {
      if (!kind.available(testName)) return;
      try {
        for (const [caseName, run] of Object.entries(cases)) {
          await t.step(caseName, async () => {
            await using engine = await kind.open();
            await run(engine);
          });
        }
      } finally {
        await kind.shutdown();
      }
    });
  }
}
