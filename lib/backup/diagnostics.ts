/**
 * The `backups` subsystem of GET /diagnostics: how old the newest backup is.
 * No backup at all is `off` (backups are not in use, as a host layer that is
 * off); a newest backup older than a week is a warning (recent changes would
 * be lost with the data directory); a listing that fails is a failure.
 */
import { check, type SubsystemReport } from "../system/diagnostics.ts";
import type { BackupManifest } from "./manifest.ts";

/** A week: past it, the newest backup no longer covers recent changes well. */
export const BACKUP_WARN_AGE_MS = 7 * 86_400_000;

/** The report for the backups `list()` finds, at `now` (Unix ms). */
export async function backupDiagnostics(
  list: () => Promise<BackupManifest[]>,
  now: number,
): Promise<SubsystemReport> {
  let all: BackupManifest[];
  try {
    all = await list();
  } catch (err) {
    const c = check("last_backup", "fail", `Backups cannot be listed: ${(err as Error).message}`);
    return { subsystem: "backups", status: "fail", checks: [c] };
  }
  const newest = all.map((b) => Date.parse(b.created_at)).sort((a, b) => b - a)[0];
  const details = { count: all.length, newest: newest ? new Date(newest).toISOString() : null };
  const c = newest === undefined
    ? check("last_backup", "off", "No backup yet (POST /backups/create)", details)
    : now - newest > BACKUP_WARN_AGE_MS
    ? check(
      "last_backup",
      "warn",
      `The newest backup is ${plural(Math.floor((now - newest) / 86_400_000), "day")} old`,
      details,
    )
    : check(
      "last_backup",
      "ok",
      `The newest backup is ${plural(Math.round((now - newest) / 60_000), "minute")} old`,
      details,
    );
  return { subsystem: "backups", status: c.status, checks: [c] };
}

/** "1 minute", "5 minutes". */
function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}
