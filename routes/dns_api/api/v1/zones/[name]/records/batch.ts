/**
 * Batch changes: all operations in one transaction. A failure answers with
 * the status of the failed operation's error (the one mapping in
 * server/http/errors.ts) and the per-operation results, so a client sees which
 * operation failed and that nothing was applied.
 */
import { BatchInput, BatchResponseSchema } from "@/lib/dns/schema.ts";
import { BatchError } from "@/lib/errors.ts";
import { mapError } from "@/server/http/errors.ts";
import { requireBatchScope } from "@/server/listeners/dns_api/key_scope.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

export const meta = define.meta({
  POST: {
    summary:
      "Apply create/update/delete operations all or none; on failure {error, status, success: false, results}",
    access: "operator",
    body: BatchInput,
    response: BatchResponseSchema,
  },
});

export const handler = define.handlers(meta, {
  async POST(ctx) {
    // Every operation is held against a key's scope before any is applied.
    await requireBatchScope(ctx, ctx.params.name, ctx.body.operations);
    try {
      return await ctx.services.dns.batch(
        ctx.auth.user.username,
        ctx.params.name,
        ctx.body.operations,
      );
    } catch (err) {
      if (!(err instanceof BatchError)) throw err;
      const mapped = mapError(err.cause);
      return new Response(
        JSON.stringify({
          error: err.message,
          status: mapped.status,
          success: false,
          results: err.results,
        }),
        {
          status: mapped.status,
          headers: { "Content-Type": "application/json; charset=utf-8", ...mapped.headers },
        },
      );
    }
  },
});
