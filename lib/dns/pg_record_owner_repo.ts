/** The `dns_record_owners` table on PostgreSQL: the twin of `SqliteRecordOwnerRepo`. */
import type { PgAsync } from "../store/pg/pg_async.ts";
import type { RecordOwnerRepo } from "./record_owner_repo.ts";
import type { RecordRow } from "./record_repo.ts";

export class PgRecordOwnerRepo implements RecordOwnerRepo {
  constructor(private readonly db: PgAsync) {}

  async mark(recordId: string, owner: string): Promise<void> {
    await this.db
      .sql`INSERT INTO dns_record_owners (record_id, owner) VALUES (${recordId}, ${owner})`;
  }

  async ownerOf(recordId: string): Promise<string | undefined> {
    const [r] = await this.db.sql<{ owner: string }[]>`
      SELECT owner FROM dns_record_owners WHERE record_id = ${recordId}`;
    return r?.owner;
  }

  async recordsOf(owner: string): Promise<RecordRow[]> {
    const rows = await this.db.sql<RecordRow[]>`
      SELECT r.id, r.zone, r.name, r.type, r.value, r.ttl, r.created_at, r.updated_at
        FROM dns_record_owners o JOIN dns_records r ON r.id = o.record_id
       WHERE o.owner = ${owner} ORDER BY r.zone, r.name, r.type, r.value, r.id`;
    return [...rows];
  }
}
