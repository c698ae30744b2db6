/**
 * The `dns_record_owners` table (migration 21): which records another
 * domain published through the DNS write path (peer names in DNS,
 * docs/tunnels.md), so that publishing never touches a hand-made record and
 * withdraws only its own. A record deleted by any path takes its mark with it
 * (foreign key). Both engines: the PostgreSQL twin is
 * `pg_record_owner_repo.ts`.
 */
import type { SqliteAsync } from "../store/sqlite_async.ts";
import type { RecordRow } from "./record_repo.ts";

export interface RecordOwnerRepo {
  /** Marks record `recordId` as written for `owner`. */
  mark(recordId: string, owner: string): Promise<void>;
  /** The owner of record `recordId`, or undefined for a hand-made record. */
  ownerOf(recordId: string): Promise<string | undefined>;
  /** The records marked for `owner`, by zone, name, type, value and id. */
  recordsOf(owner: string): Promise<RecordRow[]>;
}

export class SqliteRecordOwnerRepo implements RecordOwnerRepo {
  constructor(private readonly db: SqliteAsync) {}

  mark(recordId: string, owner: string): Promise<void> {
    return this.db.run((store) => {
      store.run("INSERT INTO dns_record_owners (record_id, owner) VALUES (?, ?)", recordId, owner);
    });
  }

  ownerOf(recordId: string): Promise<string | undefined> {
    return this.db.run((store) =>
      store.get<{ owner: string }>(
        "SELECT owner FROM dns_record_owners WHERE record_id = ?",
        recordId,
      )?.owner
    );
  }

  recordsOf(owner: string): Promise<RecordRow[]> {
    return this.db.run((store) =>
      store.all<RecordRow>(
        `SELECT r.id, r.zone, r.name, r.type, r.value, r.ttl, r.created_at, r.updated_at
           FROM dns_record_owners o JOIN dns_records r ON r.id = o.record_id
          WHERE o.owner = ? ORDER BY r.zone, r.name, r.type, r.value, r.id`,
        owner,
      )
    );
  }
}
