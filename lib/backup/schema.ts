/** Response shapes of the backup routes (docs/tunnels.md, "Backups"). */
import { z } from "zod";

export const BackupManifestSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  schema_version: z.number().int(),
  app_version: z.string(),
  kind: z.enum(["manual", "safety"]),
  created_by: z.string(),
  counts: z.record(z.string(), z.number().int()),
});

export const BackupListSchema = z.object({ backups: z.array(BackupManifestSchema) });

export const BackupRestoreSchema = z.object({
  restored: BackupManifestSchema,
  /** The backup of the state the restore replaced. */
  safety_backup: BackupManifestSchema,
  /** Schema version of the store after the restore (migrations applied to an older backup). */
  schema_version: z.number().int(),
});
