/**
 * The backups directory: `<id>.db` (the copy) and `<id>.json` (its manifest)
 * side by side, owner-only. A backup exists when both do; files are written
 * under a temporary name and renamed, so a listing never sees half of one.
 */
import { createHash } from "node:crypto";
import { NotFoundError } from "../errors.ts";

/** What `<id>.json` holds; GET /backups lists these. */
export interface BackupManifest {
  id: string;
  created_at: string;
  /** Bytes of `<id>.db`. */
  size: number;
  /** SHA-256 of `<id>.db`, hex; a restore refuses a file that no longer matches. */
  sha256: string;
  /** `PRAGMA user_version` of the copy. */
  schema_version: number;
  /** Palisade's version that wrote it. */
  app_version: string;
  /** `manual` (POST /backups/create) or `safety` (taken by a restore before it changes anything). */
  kind: "manual" | "safety";
  created_by: string;
  /** Rows per table in the copy. */
  counts: Record<string, number>;
}

/** Ids are `<UTC time>-<8 hex digits>`: they sort by time, and a path cannot hide in one. */
const ID = /^\d{8}T\d{6}\d{3}Z-[0-9a-f]{8}$/;

/** A new id for a backup made at `ms`. */
export function newBackupId(ms: number): string {
  const stamp = new Date(ms).toISOString().replace(/[-:.]/g, "");
  const rand = crypto.getRandomValues(new Uint8Array(4));
  return `${stamp}-${Array.from(rand, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/** SHA-256 of a file, hex, read in chunks. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  using file = await Deno.open(path);
  for await (const chunk of file.readable) hash.update(chunk);
  return hash.digest("hex");
}

export class BackupDir {
  constructor(readonly dir: string) {}

  /** Creates the directory (owner only) if needed, and narrows an existing one. */
  async ensure(): Promise<void> {
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(this.dir, 0o700);
  }

  dbPath(id: string): string {
    return `${this.dir}/${id}.db`;
  }

  #manifestPath(id: string): string {
    return `${this.dir}/${id}.json`;
  }

  /** Writes the manifest beside its copy, atomically. */
  async writeManifest(m: BackupManifest): Promise<void> {
    const tmp = `${this.#manifestPath(m.id)}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(m, null, 2) + "\n", { mode: 0o600 });
    await Deno.rename(tmp, this.#manifestPath(m.id));
  }

  /** The manifest of backup `id`; NotFoundError when it or its file is missing. */
  async get(id: string): Promise<BackupManifest> {
    const missing = () => new NotFoundError(`Backup "${id}" does not exist`, "id");
    if (!ID.test(id)) throw missing();
    try {
      await Deno.stat(this.dbPath(id));
      return JSON.parse(await Deno.readTextFile(this.#manifestPath(id))) as BackupManifest;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) throw missing();
      throw err;
    }
  }

  /** Every complete backup, newest first. */
  async list(): Promise<BackupManifest[]> {
    const ids: string[] = [];
    try {
      for await (const e of Deno.readDir(this.dir)) {
        const id = e.isFile && e.name.endsWith(".json") ? e.name.slice(0, -5) : "";
        if (ID.test(id)) ids.push(id);
      }
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return [];
      throw err;
    }
    const out: BackupManifest[] = [];
    for (const id of ids.sort().reverse()) {
      try {
        out.push(await this.get(id));
      } catch (err) {
        // A manifest whose copy is gone (a half-finished delete) is no backup.
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    return out;
  }

  /** Removes a backup's copy and manifest (the manifest last: it is what lists it). */
  async remove(id: string): Promise<void> {
    await Deno.remove(this.dbPath(id)).catch(ignoreMissing);
    await Deno.remove(this.#manifestPath(id)).catch(ignoreMissing);
  }
}

function ignoreMissing(err: unknown): void {
  if (!(err instanceof Deno.errors.NotFound)) throw err;
}
