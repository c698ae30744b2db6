/** Zod shapes of GET /diagnostics/all and GET /diagnostics/{subsystem}, for the OpenAPI document. */
import { z } from "zod";

const status = z.enum(["ok", "warn", "fail", "off"]);

/** One check of a subsystem. */
export const CheckSchema = z.object({
  name: z.string(),
  status,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).describe("Figures behind the message; {} when none"),
});

/** One subsystem; a subsystem may add fields (tunnels adds `host` and `last_pass`). */
export const SubsystemReportSchema = z.looseObject({
  subsystem: z.string(),
  status: status.describe("The worst of its checks; off when the subsystem is not active"),
  checks: z.array(CheckSchema),
});

export const DiagnosticsReportSchema = z.object({
  status: z.enum(["ok", "warn", "fail"]),
  generated_at: z.string(),
  subsystems: z.array(SubsystemReportSchema),
});
