/**
 * The DNS domain's repositories on either engine: `sqliteDnsRepos(store)` and
 * `pgDnsRepos(db)` return the same `DnsRepos` (docs/scaling.md, "DNS").
 */
import type { PgAsync } from "../store/pg/pg_async.ts";
import { SqliteAsync } from "../store/sqlite_async.ts";
import type { Store } from "../store/store.ts";
import { type DnssecKeyRepo, SqliteDnssecKeyRepo } from "./dnssec/key_repo.ts";
import { PgDnssecKeyRepo } from "./dnssec/pg_key_repo.ts";
import { type HistoryRepo, SqliteHistoryRepo } from "./history/history_repo.ts";
import { PgHistoryRepo } from "./history/pg_history_repo.ts";
import { type JournalLimits, type JournalRepo, SqliteJournalRepo } from "./ixfr/journal_repo.ts";
import { PgJournalRepo } from "./ixfr/pg_journal_repo.ts";
import { PgRecordRepo } from "./pg_record_repo.ts";
import { PgZoneRepo } from "./pg_zone_repo.ts";
import { type RecordRepo, SqliteRecordRepo } from "./record_repo.ts";
import { PgTsigKeyRepo } from "./tsig/pg_key_repo.ts";
import { SqliteTsigKeyRepo, type TsigKeyRepo } from "./tsig/key_repo.ts";
import { SqliteZoneRepo, type ZoneRepo } from "./zone_repo.ts";

export interface DnsRepos {
  zones: ZoneRepo;
  records: RecordRepo;
  dnssecKeys: DnssecKeyRepo;
  journal: JournalRepo;
  tsigKeys: TsigKeyRepo;
  history: HistoryRepo;
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
    history: new SqliteHistoryRepo(db),
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
    history: new PgHistoryRepo(db),
  };
}
