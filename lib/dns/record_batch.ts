/**
 * Record batches: create, update and delete operations applied in one
 * transaction with one serial bump, all or none. A failure throws
 * `BatchError` with a result per operation, so a client sees which operation
 * failed and that nothing was applied.
 */
import { BatchError, type BatchResult, DomainError, ValidationError } from "../errors.ts";
import { type DnsContext, zoneChanged, zoneOf } from "./dns_context.ts";
import {
  type CreateRecordInput,
  insertRecord,
  modifyRecord,
  removeRecord,
  type UpdateRecordInput,
} from "./records.ts";
import { RRsetBudget } from "./rrset_budget.ts";
import { bumpSerial } from "./soa_serial.ts";
import type { ZoneRow } from "./zone_repo.ts";

export type BatchOperation =
  | ({ operation: "create" } & CreateRecordInput)
  | ({ operation: "update"; id: string } & UpdateRecordInput)
  | { operation: "delete"; id: string };

/** Largest number of operations in one batch. */
export const MAX_BATCH = 1000;

/** Applies all operations in one transaction, or none (throws BatchError). */
export async function recordBatch(
  ctx: DnsContext,
  actor: string,
  zone: string,
  operations: BatchOperation[],
): Promise<{ success: true; results: BatchResult[] }> {
  if (!Array.isArray(operations) || operations.length === 0) {
    throw new ValidationError('Field "operations" must be a non-empty array', "operations");
  }
  if (operations.length > MAX_BATCH) {
    throw new ValidationError(
      `A batch holds at most ${MAX_BATCH} operations, got ${operations.length}`,
      "operations",
    );
  }
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, zone);
    // One running size per RRset for the whole batch: checking n additions costs O(n).
    const budget = new RRsetBudget(ctx.records, z.name);
    const results: BatchResult[] = [];
    for (let i = 0; i < operations.length; i++) {
      try {
        results.push(await applyOperation(ctx, actor, z, operations[i], i, budget));
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        throw new BatchError(
          `Operation ${i + 1} of ${operations.length} failed: ${err.message}`,
          failedResults(results, operations, i, err),
          i,
          err,
        );
      }
    }
    const summary = `Batch of ${operations.length} operation${operations.length === 1 ? "" : "s"}`;
    await zoneChanged(ctx, z.name, "batch", await bumpSerial(ctx, z.name, { actor, summary }));
    return { success: true as const, results };
  });
}

/** The results of a batch whose operation `i` failed: rolled back before, failed, skipped after. */
function failedResults(
  done: BatchResult[],
  operations: BatchOperation[],
  i: number,
  err: DomainError,
): BatchResult[] {
  const id = (operations[i] as { id?: unknown })?.id;
  return [
    ...done.map((r) => ({ ...r, status: "rolled_back" as const })),
    {
      operation: operationName(operations[i]),
      ...(typeof id === "string" ? { id } : {}),
      status: "failed",
      error: err.message,
    },
    ...operations.slice(i + 1).map((o) => {
      const oid = (o as { id?: unknown })?.id;
      return {
        operation: operationName(o),
        ...(typeof oid === "string" ? { id: oid } : {}),
        status: "skipped" as const,
      };
    }),
  ];
}

function operationName(op: BatchOperation): string {
  return String((op as { operation?: unknown })?.operation ?? "");
}

async function applyOperation(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  op: BatchOperation,
  i: number,
  budget: RRsetBudget,
): Promise<BatchResult> {
  const kind = (op as { operation?: unknown })?.operation;
  if (kind === "create") {
    const row = await insertRecord(ctx, actor, z, op as CreateRecordInput, budget);
    return { operation: "create", id: row.id, status: "created" };
  }
  const id = (op as { id?: unknown }).id;
  if (kind !== "update" && kind !== "delete") {
    throw new ValidationError(
      `Operation "${String(kind)}" is not one of "create", "update", "delete"`,
      `operations[${i}].operation`,
    );
  }
  if (typeof id !== "string" || id === "") {
    throw new ValidationError(`Operation "${kind}" needs an "id"`, `operations[${i}].id`);
  }
  if (kind === "update") {
    await modifyRecord(ctx, actor, z, id, op as UpdateRecordInput, budget);
    return { operation: "update", id, status: "updated" };
  }
  await removeRecord(ctx, actor, z, id, budget);
  return { operation: "delete", id, status: "deleted" };
}
