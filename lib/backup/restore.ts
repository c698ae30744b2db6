/**
 * POST /backups/{id}/restore. The backup is checked first (checksum,
 * integrity, schema version) and nothing changes when it fails; then a
 * safety backup of the live state is taken, a working copy of the backup is
 * migrated to this build's schema, and its rows replace the live rows in one
 * transaction on the live connection while every attestation thread's
 * writes are held. The live file and every connection to it stay: each
 * connection (the worker threads' included) reads the restored rows at its
 * next statement, so no handle or prepared statement can point at a stale
 * file and no listener stops. In-memory state built from the store is
 * rebuilt afterwards (`RestoreHooks`).
 */
import type { AuditLog } from "../audit/audit.ts";
import { ConflictError, UnprocessableError } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import { Store } from "../store/store.ts";
import type { BackupRepo } from "./backup_repo.ts";
import type { BackupService } from "./backups.ts";
import { type BackupManifest, sha256File } from "./manifest.ts";

/** What a restore needs besides the backups themselves. */
export interface RestoreHooks {
  /** The newest schema version this build's migrations know. */
  latestSchema: number;
  /** Runs `fn` with no attestation writes in any thread (AttestService.whileWritesHeld). */
  holdWrites<T>(fn: () => T): T;
  /** Rebuilds in-memory state from the restored rows (DNS index, JWT secret, host state). */
  rebuild(): Promise<void>;
}

export interface RestoreDeps {
  backups: BackupService;
  repo: BackupRepo;
  audit: AuditLog;
  events: EventBus;
  log: Logger;
  hooks: RestoreHooks;
}

export interface RestoreResult {
  restored: BackupManifest;
  safety_backup: BackupManifest;
  schema_version: number;
}

/** Refuses a backup that is damaged or newer than this build; changes nothing. */
async function verify(d: RestoreDeps, m: BackupManifest, path: string): Promise<void> {
  if (await sha256File(path) !== m.sha256) {
    throw new UnprocessableError(`Backup "${m.id}" does not match its SHA-256 checksum`, {
      field: "id",
      code: "checksum_mismatch",
    });
  }
  const integrity = d.repo.integrity(path);
  if (integrity !== "ok") {
    throw new UnprocessableError(`Backup "${m.id}" fails the integrity check: ${integrity}`, {
      field: "id",
      code: "corrupt",
    });
  }
  const version = d.repo.facts(path).schemaVersion;
  if (version > d.hooks.latestSchema) {
    throw new ConflictError(
      `Backup "${m.id}" has schema version ${version}, newer than this build's ${d.hooks.latestSchema}`,
      { field: "id", code: "schema_newer" },
    );
  }
}

/** Copies the backup and migrates the copy, so the live store never runs a migration mid-restore. */
async function workingCopy(path: string): Promise<string> {
  const copy = `${path}.restore`;
  await Deno.copyFile(path, copy);
  await Deno.chmod(copy, 0o600);
  Store.open(copy).close();
  return copy;
}

async function removeCopy(copy: string): Promise<void> {
  for (const p of [copy, `${copy}-wal`, `${copy}-shm`]) await Deno.remove(p).catch(() => {});
}

/** Restores backup `id` into the live store; see the module comment for the steps. */
export async function restoreBackup(
  d: RestoreDeps,
  id: string,
  actor: string,
): Promise<RestoreResult> {
  const m = await d.backups.get(id);
  const path = d.backups.files.dbPath(id);
  await verify(d, m, path);
  const copy = await workingCopy(path);
  try {
    const safety = await d.backups.create(actor, "safety", id);
    d.hooks.holdWrites(() => d.repo.restoreRows(copy));
    // The working copy was migrated to this build's schema.
    const schema = d.hooks.latestSchema;
    await d.hooks.rebuild();
    d.audit.record({
      actor,
      event_type: "backup.restored",
      message: `Backup "${id}" restored (schema ${m.schema_version} → ${schema}); ` +
        `the replaced state is backup "${safety.id}"`,
      resource_type: "backup",
      resource_id: id,
    });
    d.events.emit("BackupRestored", { id, safety_backup_id: safety.id, schema_version: schema });
    d.log.info("backup restored", { backup: id, safety_backup: safety.id, schema });
    return { restored: m, safety_backup: safety, schema_version: schema };
  } finally {
    await removeCopy(copy);
  }
}
