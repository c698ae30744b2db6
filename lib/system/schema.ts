/** The version response of both APIs (admin `GET /api/v1/system/version`, DNS API `GET /api/v1/version`). */
import { z } from "zod";

export const VersionSchema = z.object({
  version: z.string(),
  commit: z.string(),
  deno: z.string(),
  v8: z.string(),
  typescript: z.string(),
  api: z.string().describe("The API version of the paths: v1 for /api/v1"),
  compatibility: z.string().describe(
    "The compatibility policy of /api/v1: what may change without a new version (docs/compatibility.md)",
  ),
});
