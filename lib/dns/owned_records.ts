/**
 * Records another domain publishes in a Palisade zone (peer names in DNS,
 * docs/tunnels.md): each record is marked with its owner, written and removed
 * through the same steps as any record change (records.ts: validation, zone
 * rules, audit), with one serial bump and journal step per touched zone and
 * the answer reload and ZoneChanged after commit (dns_context.ts). Runs in
 * the caller's transaction, so the owner's own change and its records commit
 * or roll back together. A name already holding a record that is not the
 * owner's (hand-made, or another owner's) is refused, never overwritten.
 */
import { ConflictError } from "../errors.ts";
import { type DnsContext, zoneChanged, zoneOf } from "./dns_context.ts";
import { normalizeZoneName, ownerInZone } from "./names.ts";
import type { RecordOwnerRepo } from "./record_owner_repo.ts";
import type { RecordRow } from "./record_repo.ts";
import { insertRecord, removeRecord } from "./records.ts";
import { bumpSerial } from "./soa_serial.ts";

/** One record an owner wants: `name` absolute, in the zone given with it. */
export interface WantedRecord {
  name: string;
  type: "A" | "AAAA";
  value: string;
}

const key = (r: { zone: string; name: string; type: string; value: string }) =>
  `${r.zone}\n${r.name}\n${r.type}\n${r.value}`;

export class OwnedRecords {
  constructor(
    private readonly ctx: DnsContext,
    private readonly owners: RecordOwnerRepo,
  ) {}

  /** The stored name of zone `name`, or undefined when no such zone exists. */
  async zoneName(name: string): Promise<string | undefined> {
    try {
      return (await this.ctx.zones.get(normalizeZoneName(name, "dns_zone")))?.name;
    } catch {
      return undefined;
    }
  }

  /**
   * Makes the records of `owner` exactly `wanted` in `zone` (none when `zone`
   * is null): removes the others, adds the missing ones. ConflictError with
   * `field` and code "dns_name_taken" when a wanted name holds a record that
   * is not the owner's.
   */
  async sync(
    actor: string,
    owner: string,
    zone: string | null,
    wanted: WantedRecord[],
    field: string,
  ): Promise<void> {
    await this.ctx.transactor.tx(async () => {
      const have = await this.owners.recordsOf(owner);
      const z = zone === null ? null : await zoneOf(this.ctx, zone);
      const want = z === null
        ? []
        : wanted.map((w) => ({ ...w, zone: z.name, name: ownerInZone(w.name, z.name, field) }));
      const wantKeys = new Set(want.map(key));
      const haveKeys = new Set(have.map(key));
      const touched = new Set<string>();
      for (const r of have) {
        if (wantKeys.has(key(r))) continue;
        await removeRecord(this.ctx, actor, await zoneOf(this.ctx, r.zone), r.id);
        touched.add(r.zone);
      }
      for (const w of want) {
        if (haveKeys.has(key(w))) continue;
        await this.#refuseClash(owner, w.zone, w.name, field);
        const row = await insertRecord(this.ctx, actor, z!, {
          domain: w.name,
          type: w.type,
          value: w.value,
        });
        await this.owners.mark(row.id, owner);
        touched.add(w.zone);
      }
      for (const name of touched) {
        await zoneChanged(this.ctx, name, "owned_records", await bumpSerial(this.ctx, name));
      }
    });
  }

  /** The records `owner` holds, by zone, name, type and value. */
  recordsOf(owner: string): Promise<RecordRow[]> {
    return this.owners.recordsOf(owner);
  }

  async #refuseClash(owner: string, zone: string, name: string, field: string): Promise<void> {
    for (const r of await this.ctx.records.atName(zone, name)) {
      if (await this.owners.ownerOf(r.id) === owner) continue;
      throw new ConflictError(
        `Name "${name}" already holds a ${r.type} record in zone "${zone}" that Palisade did not publish for this peer`,
        { field, code: "dns_name_taken" },
      );
    }
  }
}
