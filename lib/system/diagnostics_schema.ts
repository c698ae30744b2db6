/** Zod shapes of GET /diagnostics/all and GET /diagnostics/{subsystem}, for the OpenAPI document. */
import { z } from "zod";

const status = z.enum(["ok", "warning", "error", "off"]);

/** One subsystem; a subsystem may add fields (tunnels adds `host` and `last_pass`). */
export const SubsystemReportSchema = z.looseObject({
  subsystem: z.string(),
  status: status.describe("The worst of its checks; off when the subsystem is not active"),
  checks: z.array(z.object({ name: z.string(), status, detail: z.string() })),
});

export const DiagnosticsReportSchema = z.object({
  status: z.enum(["ok", "warning", "error"]),
  generated_at: z.string(),
  subsystems: z.array(SubsystemReportSchema),
});
