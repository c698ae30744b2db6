/**
 * Applies RRset changes to a zone in the caller's transaction, through the
 * records API's own steps (records.ts: validation, zone rules, RRset budget,
 * audit per record): REPLACE deletes the RRset's records and inserts the
 * given ones with the RRset's TTL; DELETE removes them. The apex NS RRset is
 * the zone's nameservers (and their TTL); the SOA is the zone's fields and
 * cannot be written through this API. A refusal of any record rolls the whole
 * PATCH back (422, as PowerDNS), and the serial moves once.
 */
import {
  DomainError,
  ForbiddenError,
  NotFoundError,
  NotImplementedError,
  UnprocessableError,
} from "../../errors.ts";
import { type DnsContext, unique, zoneChanged } from "../dns_context.ts";
import { fqdn, normalizeName } from "../names.ts";
import { insertRecord, removeRecord } from "../records.ts";
import { RRsetBudget } from "../rrset_budget.ts";
import { bumpSerial } from "../soa_serial.ts";
import type { ZoneRow } from "../zone_repo.ts";
import type { RRsetChange } from "./rrset_changes.ts";

/** Applies `changes` to zone `z` and bumps its serial once; call inside a transaction. */
export async function applyRRsetChanges(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  changes: RRsetChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const budget = new RRsetBudget(ctx.records, z.name);
  for (const c of changes) {
    try {
      if (c.type === "SOA") {
        throw new NotImplementedError(
          `The SOA of zone "${
            fqdn(z.name)
          }" is made from the zone's fields: change them with PUT /api/v1/zones/${z.name}`,
        );
      }
      if (c.type === "NS" && c.name === z.name) await apexNs(ctx, z, c);
      else await replaceRRset(ctx, actor, z, c, budget);
    } catch (err) {
      throw refusal(err, c);
    }
  }
  const by = {
    actor,
    summary: `PowerDNS API PATCH of ${changes.length} RRset${changes.length === 1 ? "" : "s"}`,
  };
  await zoneChanged(ctx, z.name, "pdns_patch", await bumpSerial(ctx, z.name, by));
}

async function replaceRRset(
  ctx: DnsContext,
  actor: string,
  z: ZoneRow,
  c: RRsetChange,
  budget: RRsetBudget,
): Promise<void> {
  for (const r of await ctx.records.atName(z.name, c.name, c.type)) {
    await removeRecord(ctx, actor, z, r.id, budget);
  }
  for (const value of c.contents) {
    await insertRecord(
      ctx,
      actor,
      z,
      { domain: fqdn(c.name), type: c.type, value, ttl: c.ttl },
      budget,
    );
  }
}

/** The apex NS RRset: the zone's nameservers and their TTL. */
async function apexNs(ctx: DnsContext, z: ZoneRow, c: RRsetChange): Promise<void> {
  if (c.contents.length === 0) {
    throw new UnprocessableError(`Zone "${fqdn(z.name)}" needs at least one apex NS record`);
  }
  const nameservers = unique(c.contents.map((h) => normalizeName(h, "content")));
  await ctx.zones.update(z.name, { nameservers, ns_ttl: c.ttl });
}

/** A record step's refusal as PowerDNS words it: 422 naming the RRset; 403, 404, 501 kept. */
function refusal(err: unknown, c: RRsetChange): unknown {
  if (!(err instanceof DomainError)) return err;
  if (
    err instanceof ForbiddenError || err instanceof NotFoundError ||
    err instanceof NotImplementedError
  ) return err;
  return new UnprocessableError(`RRset ${c.shown} IN ${c.type}: ${err.message}`, err.field);
}
