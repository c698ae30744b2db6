/** Request and response shapes of POST /cli/execute. */
import { z } from "zod";

const word = z.string().max(40);

export const ConsoleRequestSchema = z.object({
  command: word.min(1),
  subcommand: word.nullable().optional(),
  sub_subcommand: word.nullable().optional(),
  target: z.string().max(255).nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
}).strict();

export type ConsoleRequest = z.infer<typeof ConsoleRequestSchema>;

export const ConsoleResultSchema = z.object({
  command: z.string().describe("The allowlisted command that ran, e.g. `wg show dump`"),
  kind: z.enum(["internal", "host"]),
  command_line: z.string().nullable().describe(
    "Host commands: the argument array as run, joined by spaces; null for internal commands",
  ),
  output: z.unknown().describe(
    "JSON (internal commands, host commands with -j) or text; secrets masked as `(hidden)`",
  ),
  stderr: z.string().nullable(),
  exit_code: z.number().int(),
  duration_ms: z.number(),
  truncated: z.boolean(),
});

export type ConsoleResult = z.infer<typeof ConsoleResultSchema>;
