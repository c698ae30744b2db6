/**
 * Backups of the store: online snapshots into `<data>/backups/`, their
 * manifests, download, deletion and retention. Restoring one is
 * `restore.ts`. A backup holds every secret of the store (private keys,
 * password hashes, the DNS API's JWT secret): the routes are for
 * administrators only, and the audit names backups, never their contents.
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import { isoTime } from "../clock.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../log/log.ts";
import type { BackupRepo } from "./backup_repo.ts";
import { BackupDir, type BackupManifest, newBackupId, sha256File } from "./manifest.ts";
import { restoreBackup, type RestoreHooks, type RestoreResult } from "./restore.ts";

export interface BackupDeps {
  repo: BackupRepo;
  audit: AuditLog;
  events: EventBus;
  clock: Clock;
  log: Logger;
  /** `<PALISADE_DATA>/backups`. */
  dir: string;
  /** Backups kept after a create (oldest deleted first); 0 keeps all. */
  keep: number;
  appVersion: string;
  hooks: RestoreHooks;
}

/** What a download streams. */
export interface BackupFile {
  path: string;
  filename: string;
  size: number;
}

/**
 * What the routes and pages call: `BackupService` on SQLite,
 * `externalBackups()` (external.ts) on PostgreSQL.
 */
export type Backups = Pick<
  BackupService,
  "list" | "get" | "create" | "download" | "delete" | "restore"
>;

export class BackupService {
  readonly files: BackupDir;

  constructor(private readonly d: BackupDeps) {
    this.files = new BackupDir(d.dir);
  }

  /** Every backup, newest first. */
  list(): Promise<BackupManifest[]> {
    return this.files.list();
  }

  get(id: string): Promise<BackupManifest> {
    return this.files.get(id);
  }

  /**
   * Snapshots the live store while it keeps serving (VACUUM INTO reads one
   * consistent state, whatever commits meanwhile), then applies retention;
   * `protect` is never deleted by it (the backup a restore is reading).
   */
  async create(
    actor: string,
    kind: BackupManifest["kind"] = "manual",
    protect?: string,
  ): Promise<BackupManifest> {
    await this.files.ensure();
    const now = this.d.clock.now();
    const id = newBackupId(now);
    const path = this.files.dbPath(id);
    const tmp = `${path}.tmp`;
    try {
      this.d.repo.snapshot(tmp);
      await Deno.chmod(tmp, 0o600);
      const facts = this.d.repo.facts(tmp);
      const manifest: BackupManifest = {
        id,
        created_at: isoTime(now),
        size: (await Deno.stat(tmp)).size,
        sha256: await sha256File(tmp),
        schema_version: facts.schemaVersion,
        app_version: this.d.appVersion,
        kind,
        created_by: actor,
        counts: facts.counts,
      };
      await Deno.rename(tmp, path);
      await this.files.writeManifest(manifest);
      this.d.audit.record({
        actor,
        event_type: "backup.created",
        message: `Backup "${id}" created (${kind}, ${manifest.size} bytes)`,
        resource_type: "backup",
        resource_id: id,
      });
      await this.#retain(actor, protect);
      return manifest;
    } catch (err) {
      await Deno.remove(tmp).catch(() => {});
      throw err;
    }
  }

  /** The file of backup `id` for a download (audited: it holds every secret). */
  async download(id: string, actor: string): Promise<BackupFile> {
    const m = await this.files.get(id);
    this.d.audit.record({
      actor,
      event_type: "backup.downloaded",
      message: `Backup "${id}" downloaded`,
      resource_type: "backup",
      resource_id: id,
    });
    return { path: this.files.dbPath(id), filename: `palisade-backup-${id}.db`, size: m.size };
  }

  async delete(id: string, actor: string): Promise<void> {
    await this.files.get(id);
    await this.files.remove(id);
    this.d.audit.record({
      actor,
      event_type: "backup.deleted",
      message: `Backup "${id}" deleted`,
      resource_type: "backup",
      resource_id: id,
    });
  }

  /** Replaces the live store's rows with backup `id`'s (restore.ts). */
  restore(id: string, actor: string): Promise<RestoreResult> {
    const { repo, audit, events, log, hooks } = this.d;
    return restoreBackup({ backups: this, repo, audit, events, log, hooks }, id, actor);
  }

  /** Deletes the oldest backups beyond `keep` (when set). */
  async #retain(actor: string, protect?: string): Promise<void> {
    if (this.d.keep <= 0) return;
    const all = await this.files.list();
    for (const old of all.slice(this.d.keep)) {
      if (old.id === protect) continue;
      await this.files.remove(old.id);
      this.d.audit.record({
        actor,
        event_type: "backup.deleted",
        message: `Backup "${old.id}" deleted by retention (PALISADE_BACKUP_KEEP=${this.d.keep})`,
        resource_type: "backup",
        resource_id: old.id,
      });
    }
  }
}
