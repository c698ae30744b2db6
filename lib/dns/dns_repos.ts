/** The DNS domain's repositories, and their SQLite implementations over one store. */
import type { Store } from "../store/store.ts";
import { type DnssecKeyRepo, SqliteDnssecKeyRepo } from "./dnssec/key_repo.ts";
import { type JournalLimits, type JournalRepo, SqliteJournalRepo } from "./ixfr/journal_repo.ts";
import { type RecordRepo, SqliteRecordRepo } from "./record_repo.ts";
import { SqliteTsigKeyRepo, type TsigKeyRepo } from "./tsig/key_repo.ts";
import { SqliteZoneRepo, type ZoneRepo } from "./zone_repo.ts";

export interface DnsRepos {
  zones: ZoneRepo;
  records: RecordRepo;
  dnssecKeys: DnssecKeyRepo;
  journal: JournalRepo;
  tsigKeys: TsigKeyRepo;
}

/** Every DNS repository over `store`; `journal` bounds each zone's IXFR journal. */
export function sqliteDnsRepos(store: Store, journal?: JournalLimits): DnsRepos {
  return {
    zones: new SqliteZoneRepo(store),
    records: new SqliteRecordRepo(store),
    dnssecKeys: new SqliteDnssecKeyRepo(store),
    journal: new SqliteJournalRepo(store, journal),
    tsigKeys: new SqliteTsigKeyRepo(store),
  };
}
