/**
 * Dynamic updates (RFC 2136) of a zone, by a TSIG key with `update` for it:
 * the zone section, the prerequisites and the prescan (update_rules.ts),
 * then every update record applied in one transaction through the records
 * API's own steps (records.ts: validation, zone rules, RRset budget, audit
 * per record with the actor `tsig:<key name>`), one serial bump (which
 * writes the IXFR journal), and a `ZoneChanged` event with action
 * `dynamic_update` after commit (the index reloads, NOTIFY goes out). A rule
 * the change breaks rolls the whole update back. docs/dns.md, "Dynamic updates".
 */
import { ConflictError, DomainError, UnprocessableError, ValidationError } from "../../errors.ts";
import { type DnsContext, zoneChanged, zoneOf } from "../dns_context.ts";
import { fqdn } from "../names.ts";
import { insertRecord, modifyRecord, removeRecord } from "../records.ts";
import { RRsetBudget } from "../rrset_budget.ts";
import { bumpSerial } from "../soa_serial.ts";
import type { StoredTsigKey } from "../tsig/key_repo.ts";
import { keyAllows } from "../tsig/tsig_answer.ts";
import type { ZoneRow } from "../zone_repo.ts";
import { readUpdate, type UpdateMessage, type UpdateRecord } from "./update_message.ts";
import { UpdateFormatError } from "./update_message.ts";
import {
  C_ANY,
  C_IN,
  C_NONE,
  checkPrerequisites,
  prescan,
  Rcode,
  T_ANY,
  typeOf,
  UpdateRefusal,
  valueOf,
} from "./update_rules.ts";

/** What the responder hands an update to; "denied" when the key may not update the zone. */
export interface UpdateHandler {
  handle(msg: Uint8Array, key: StoredTsigKey): Promise<number | "denied">;
}

export class DnsUpdater implements UpdateHandler {
  constructor(private readonly ctx: DnsContext) {}

  /** The response code of the update `msg`, signed with `key` (already verified). */
  async handle(msg: Uint8Array, key: StoredTsigKey): Promise<number | "denied"> {
    let m: UpdateMessage;
    try {
      m = readUpdate(msg);
    } catch (err) {
      if (err instanceof UpdateFormatError) return Rcode.formErr;
      throw err;
    }
    const z = await this.ctx.zones.get(m.zone.name);
    if (!z || m.zone.class !== C_IN) return Rcode.notAuth;
    if (!keyAllows(key, z.name, "update")) return "denied";
    try {
      await this.ctx.transactor.tx(() => apply(this.ctx, `tsig:${key.name}`, m));
      // The index follows the update before the client hears it landed.
      await this.ctx.index?.settled();
      return Rcode.noError;
    } catch (err) {
      if (err instanceof UpdateRefusal) return err.rcode;
      if (err instanceof ValidationError) return Rcode.formErr;
      if (err instanceof ConflictError || err instanceof UnprocessableError) return Rcode.refused;
      if (err instanceof DomainError) return Rcode.refused;
      throw err;
    }
  }
}

/** The whole update in the caller's transaction: checks, then each record in order. */
async function apply(ctx: DnsContext, actor: string, m: UpdateMessage): Promise<void> {
  const z = await zoneOf(ctx, m.zone.name);
  await checkPrerequisites(ctx, z, m.prerequisites);
  prescan(z, m.updates);
  const budget = new RRsetBudget(ctx.records, z.name);
  let changed = false;
  for (const rr of m.updates) {
    if (await applyOne(ctx, actor, z, rr, budget)) changed = true;
  }
  // RFC 2136 §3.6: the serial moves only when the zone changed.
  if (!changed) return;
  const by = { actor, summary: "Dynamic update (RFC 2136)" };
  await zoneChanged(ctx, z.name, "dynamic_update", await bumpSerial(ctx, z.name, by));
}

/** One update record (§3.4.2); true when it changed the zone. */
async function applyOne(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  rr: UpdateRecord,
  budget: RRsetBudget,
): Promise<boolean> {
  if (rr.class === C_IN) return await add(ctx, actor, z, rr, budget);
  const apex = rr.name === z.name;
  let rows;
  if (rr.class === C_ANY) {
    // §3.4.2.3: at the apex neither the SOA nor the NS go (ours are not records anyway).
    if (apex && (rr.type === 6 || rr.type === 2)) return false;
    rows = rr.type === T_ANY
      ? await ctx.records.atName(z.name, rr.name)
      : await ctx.records.atName(z.name, rr.name, typeOf(rr));
  } else if (rr.class === C_NONE) {
    if (rr.type === 6) return false; // §3.4.2.4: an SOA is never deleted
    const { type, value } = valueOf(rr);
    rows = (await ctx.records.atName(z.name, rr.name, type)).filter((r) => r.value === value);
  } else {
    return false;
  }
  const doomed = rows.filter((r) => r.type !== "SOA");
  for (const r of doomed) await removeRecord(ctx, actor, z, r.id, budget);
  return doomed.length > 0;
}

/**
 * §3.4.2.2: a record already there with the same data is replaced (its TTL
 * taken), a CNAME replaces the CNAME of its owner; anything else goes
 * through the records API's checks.
 */
async function add(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  rr: UpdateRecord,
  budget: RRsetBudget,
): Promise<boolean> {
  const { type, value } = valueOf(rr);
  const rows = await ctx.records.atName(z.name, rr.name, type);
  const same = rows.find((r) => r.value === value);
  if (same) {
    if (same.ttl === rr.ttl) return false;
    await modifyRecord(ctx, actor, z, same.id, { ttl: rr.ttl }, budget);
    return true;
  }
  if (type === "CNAME") {
    for (const r of rows) await removeRecord(ctx, actor, z, r.id, budget);
  }
  await insertRecord(ctx, actor, z, { domain: fqdn(rr.name), type, value, ttl: rr.ttl }, budget);
  return true;
}
