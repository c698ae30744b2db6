/**
 * The DNS domain's repositories on either engine: `sqliteDnsRepos(store)` and
 * `pgDnsRepos(db)` return the same `DnsRepos` (docs/scaling.md, "DNS").
 */
import type { PgAsync } from "../store/pg/pg_async.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import {
  type DnssecKeyRepo,
  type DnssecKeyStatements,
  SqliteDnssecKeyRepo,
  SqliteDnssecKeyStatements,
} from "./dnssec/key_repo.ts";
import { PgDnssecKeyRepo } from "./dnssec/pg_key_repo.ts";
import {
  type JournalLimits,
  type JournalRepo,
  type JournalStatements,
  SqliteJournalRepo,
  SqliteJournalStatements,
} from "./ixfr/journal_repo.ts";
import { PgJournalRepo } from "./ixfr/pg_journal_repo.ts";
import { PgRecordRepo } from "./pg_record_repo.ts";
import { PgZoneRepo } from "./pg_zone_repo.ts";
import { type RecordRepo, type RecordStatements, SqliteRecordRepo } from "./record_repo.ts";
import { SqliteRecordStatements } from "./sqlite_record_repo.ts";
import { PgTsigKeyRepo } from "./tsig/pg_key_repo.ts";
import {
  SqliteTsigKeyRepo,
  SqliteTsigKeyStatements,
  type TsigKeyRepo,
  type TsigKeyStatements,
} from "./tsig/key_repo.ts";
import {
  SqliteZoneRepo,
  SqliteZoneStatements,
  type ZoneRepo,
  type ZoneStatements,
} from "./zone_repo.ts";

export interface DnsRepos {
  zones: ZoneRepo;
  records: RecordRepo;
  dnssecKeys: DnssecKeyRepo;
  journal: JournalRepo;
  tsigKeys: TsigKeyRepo;
}

/** Every DNS repository over `store`; `journal` bounds each zone's IXFR journal. */
export function sqliteDnsRepos(store: Store, journal?: JournalLimits): DnsRepos {
  const db = SqliteAsync.of(store);
  return {
    zones: new SqliteZoneRepo(db),
    records: new SqliteRecordRepo(db),
    dnssecKeys: new SqliteDnssecKeyRepo(db),
    journal: new SqliteJournalRepo(db, journal),
    tsigKeys: new SqliteTsigKeyRepo(db),
  };
}

/** Every DNS repository over PostgreSQL; `journal` bounds each zone's IXFR journal. */
export function pgDnsRepos(db: PgAsync, journal?: JournalLimits): DnsRepos {
  return {
    zones: new PgZoneRepo(db),
    records: new PgRecordRepo(db),
    dnssecKeys: new PgDnssecKeyRepo(db),
    journal: new PgJournalRepo(db, journal),
    tsigKeys: new PgTsigKeyRepo(db),
  };
}

/**
 * Transitional, until the DNS services await the repositories: the same
 * statements, synchronous, over SQLite only.
 */
export interface DnsStatements {
  zones: ZoneStatements;
  records: RecordStatements;
  dnssecKeys: DnssecKeyStatements;
  journal: JournalStatements;
  tsigKeys: TsigKeyStatements;
}

/** The synchronous statements of every DNS table over `store` (transitional). */
export function sqliteDnsStatements(store: Store, journal?: JournalLimits): DnsStatements {
  return {
    zones: new SqliteZoneStatements(store),
    records: new SqliteRecordStatements(store),
    dnssecKeys: new SqliteDnssecKeyStatements(store),
    journal: new SqliteJournalStatements(store, journal),
    tsigKeys: new SqliteTsigKeyStatements(store),
  };
}
