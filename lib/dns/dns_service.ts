/**
 * The DNS management service: zones, records, batches, zone files and
 * DNSSEC keys. Each job is its own module (zones.ts, records.ts,
 * record_batch.ts, zone_import.ts, zone_export.ts, dnssec/dnssec_service.ts);
 * this class is the one object routes and
 * pages call. Every mutation runs in one transaction that also bumps the SOA
 * serial and writes the audit record; after it commits, the answer index is
 * told to reload the zone and a `ZoneChanged` event goes out (NOTIFY hangs
 * off that).
 */
import { getChange, listHistory, revertChange } from "./history/history.ts";
import type { PageInfo, PageRequest } from "../paging.ts";
import type { BatchResult } from "../errors.ts";
import type { DnsContext } from "./dns_context.ts";
import {
  type DnssecInput,
  type DnssecStatus,
  dnssecStatus,
  setDnssec,
} from "./dnssec/dnssec_service.ts";
import type { KeyPageQuery } from "./dnssec/key_page.ts";
import { type RotateResult, rotateZsk } from "./dnssec/rollover.ts";
import { type BatchOperation, recordBatch } from "./record_batch.ts";
import {
  createRecord,
  type CreateRecordInput,
  deleteRecord,
  type DnsRecord,
  getRecord,
  listRecordPage,
  listRecords,
  updateRecord,
  type UpdateRecordInput,
} from "./records.ts";
import { PdnsApi } from "./pdns/pdns_api.ts";
import { TsigService } from "./tsig/tsig_service.ts";
import { DnsUpdater } from "./update/dns_update.ts";
import { exportZone } from "./zone_export.ts";
import { type ImportResult, importZone } from "./zone_import.ts";
import {
  createZone,
  type CreateZoneInput,
  deleteZone,
  getZone,
  listZonePage,
  listZones,
  updateZone,
  type UpdateZoneInput,
  type ZoneDetails,
  type ZoneSummary,
} from "./zones.ts";

export type { DnsContext, ZoneInvalidator } from "./dns_context.ts";
export type { DnssecInput, DnssecKey, DnssecStatus } from "./dnssec/dnssec_service.ts";
export type { RolloverView, RotateResult } from "./dnssec/rollover.ts";
export type { BatchOperation } from "./record_batch.ts";
export { MAX_BATCH } from "./record_batch.ts";
export type { CreateRecordInput, DnsRecord, UpdateRecordInput } from "./records.ts";
export type { ImportResult } from "./zone_import.ts";
export type { CreateZoneInput, UpdateZoneInput, ZoneDetails, ZoneSummary } from "./zones.ts";

export class DnsService {
  /** TSIG keys (tsig/tsig_service.ts), over the same store, audit log and events. */
  readonly tsig: TsigService;
  /** Dynamic updates (RFC 2136) for the DNS listener (update/dns_update.ts). */
  readonly updates: DnsUpdater;
  /** The PowerDNS-compatible API (pdns/pdns_api.ts). */
  readonly pdns: PdnsApi;

  constructor(private readonly ctx: DnsContext) {
    const { transactor, audit, events, clock } = ctx;
    this.tsig = new TsigService({ repo: ctx.tsigKeys, transactor, audit, events, clock });
    this.updates = new DnsUpdater(ctx);
    this.pdns = new PdnsApi(ctx);
  }

  /** `change`'s result once the answer index follows it (the reload runs after the commit). */
  async #settled<T>(change: Promise<T>): Promise<T> {
    try {
      return await change;
    } finally {
      await this.ctx.index?.settled();
    }
  }

  /** Every zone with its record count, by name. */
  listZones(): Promise<ZoneSummary[]> {
    return listZones(this.ctx);
  }

  /** GET /zones: a page of zones by name, with the total (docs/api.md, "Pagination"). */
  listZonePage(req: PageRequest): Promise<{ zones: ZoneSummary[] } & PageInfo> {
    return listZonePage(this.ctx, req);
  }

  /** One zone with all fields; NotFoundError when absent. */
  getZone(name: string): Promise<ZoneDetails> {
    return getZone(this.ctx, name);
  }

  /** Creates a zone with its SOA (records_count 1) and the configured apex NS. */
  createZone(actor: string, input: CreateZoneInput): Promise<ZoneDetails> {
    return this.#settled(createZone(this.ctx, actor, input));
  }

  /** Updates SOA fields and nameservers; bumps the serial. */
  updateZone(actor: string, name: string, input: UpdateZoneInput): Promise<ZoneDetails> {
    return this.#settled(updateZone(this.ctx, actor, name, input));
  }

  /** Deletes a zone and all its records. */
  deleteZone(actor: string, name: string): Promise<{ success: true; message: string }> {
    return this.#settled(deleteZone(this.ctx, actor, name));
  }

  /** The zone's records (SOA first), optionally only those of `type`. */
  listRecords(zone: string, type?: string): Promise<{ zone: string; records: DnsRecord[] }> {
    return listRecords(this.ctx, zone, type);
  }

  /** GET /zones/{name}/records: a page of the zone's records, with the total. */
  listRecordPage(
    zone: string,
    type: string | undefined,
    req: PageRequest,
  ): Promise<{ zone: string; records: DnsRecord[] } & PageInfo> {
    return listRecordPage(this.ctx, zone, type, req);
  }

  /** One record; NotFoundError when the zone or the record is absent. */
  getRecord(zone: string, id: string): Promise<DnsRecord> {
    return getRecord(this.ctx, zone, id);
  }

  /** Creates a record after validating its data and the zone rules. */
  createRecord(actor: string, zone: string, input: CreateRecordInput): Promise<DnsRecord> {
    return this.#settled(createRecord(this.ctx, actor, zone, input));
  }

  /** Changes a record's value and/or TTL. */
  updateRecord(
    actor: string,
    zone: string,
    id: string,
    input: UpdateRecordInput,
  ): Promise<DnsRecord> {
    return this.#settled(updateRecord(this.ctx, actor, zone, id, input));
  }

  /** Deletes a record; the SOA cannot be deleted. */
  deleteRecord(
    actor: string,
    zone: string,
    id: string,
  ): Promise<{ success: true; message: string }> {
    return this.#settled(deleteRecord(this.ctx, actor, zone, id));
  }

  /** Applies all operations in one transaction, or none (throws BatchError). */
  batch(
    actor: string,
    zone: string,
    operations: BatchOperation[],
  ): Promise<{ success: true; results: BatchResult[] }> {
    return this.#settled(recordBatch(this.ctx, actor, zone, operations));
  }

  /** The zone as an RFC 1035 master file. */
  exportZone(zone: string): Promise<string> {
    return exportZone(this.ctx, zone);
  }

  /** Loads a master file into `zone`, creating it from the file's SOA when missing (see zone_import.ts). */
  importZone(
    actor: string,
    zone: string,
    text: string,
    opts: { replace?: boolean } = {},
  ): Promise<ImportResult> {
    return this.#settled(importZone(this.ctx, actor, zone, text, opts));
  }

  /** The zone's DNSSEC keys and the DS records for its parent. */
  dnssecStatus(zone: string, query?: KeyPageQuery): Promise<DnssecStatus> {
    return dnssecStatus(this.ctx, zone, query);
  }

  /** Turns DNSSEC on (new or kept KSK and ZSK) or off (keys kept); see dnssec/dnssec_service.ts. */
  setDnssec(actor: string, zone: string, input: DnssecInput): Promise<DnssecStatus> {
    return this.#settled(setDnssec(this.ctx, actor, zone, input));
  }

  /** The zone's change sets, newest first; see history/history.ts. */
  listHistory(zone: string, opts?: { limit?: number; before?: number }) {
    return listHistory(this.ctx, zone, opts);
  }

  /** One change set of the zone. */
  getHistoryChange(zone: string, id: number) {
    return getChange(this.ctx, zone, id);
  }

  /** Reverts change set `id` of the zone as a new change set; see history/history.ts. */
  revertChange(actor: string, zone: string, id: number) {
    return this.#settled(revertChange(this.ctx, actor, zone, id));
  }

  /** Starts a ZSK pre-publish rollover; see dnssec/rollover.ts. */
  rotateDnssec(actor: string, zone: string): Promise<RotateResult> {
    return this.#settled(rotateZsk(this.ctx, actor, zone));
  }
}
