/**
 * Backups on a PostgreSQL store (issue 27, docs/scaling.md decision 11):
 * Palisade's backups are snapshots of the SQLite file, and a PostgreSQL
 * database shared by several instances is backed up with PostgreSQL's own
 * tools (`pg_dump`, base backups with WAL archiving). Every backup route
 * and page answers 409 with code `backups_external` and says so; nothing is
 * written to the data directory.
 */
import { ConflictError } from "../errors.ts";
import type { Backups } from "./backups.ts";

/** The `code` of the refusal, for a client that hides its backup controls. */
export const BACKUPS_EXTERNAL = "backups_external";

export function externalBackupsError(): ConflictError {
  return new ConflictError(
    "The store is PostgreSQL: back it up with PostgreSQL's own tools (pg_dump); " +
      "Palisade's backups are for a SQLite store",
    { code: BACKUPS_EXTERNAL },
  );
}

/** The composition root's backups on PostgreSQL: each operation is refused. */
export function externalBackups(): Backups {
  const refuse = () => Promise.reject(externalBackupsError());
  return {
    list: refuse,
    get: refuse,
    create: refuse,
    download: refuse,
    delete: refuse,
    restore: refuse,
  };
}
