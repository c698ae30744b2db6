/**
 * The DNS management service: zones, records, batches and zone files over the
 * store. Every mutation runs in one transaction that also bumps the SOA serial
 * and writes the audit record; after it commits, the answer index is told to
 * reload the zone and a `ZoneChanged` event goes out (NOTIFY hangs off that).
 */
import type { AuditLog } from "../audit/audit.ts";
import type { Clock } from "../clock.ts";
import { isoTime } from "../clock.ts";
import {
  ConflictError,
  DomainError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
} from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { Store } from "../store/store.ts";
import { inZone, normalizeName, normalizeZoneName, ownerInZone, parentName } from "./names.ts";
import { normalizeType, parseRdata } from "./rdata.ts";
import {
  nextSerial,
  normalizeEmail,
  serialGreater,
  SOA_DEFAULTS,
  type SoaTimers,
  soaValue,
  validateTimers,
  validateTtl,
} from "./soa.ts";
import { parseZoneFile, serializeZoneFile } from "./zone_file.ts";

/** Options the service takes from configuration. */
export interface DnsServiceOptions {
  /**
   * Apex NS host names for new zones (PALISADE_DNS_NAMESERVERS); "{zone}"
   * in an entry is replaced by the zone name. The first is the SOA MNAME.
   */
  nameservers: string[];
}

/** Told after a commit that a zone's data changed, so answers follow the store. */
export interface ZoneInvalidator {
  invalidate(zone: string): void;
}

export interface CreateZoneInput {
  name: string;
  admin_email: string;
  refresh?: number;
  retry?: number;
  expire?: number;
  minimum?: number;
  default_ttl?: number;
  /** Overrides the configured apex nameservers. */
  nameservers?: string[];
}

export type UpdateZoneInput = Partial<Omit<CreateZoneInput, "name">>;

export interface ZoneSummary {
  name: string;
  records_count: number;
  created_at: string;
  updated_at: string;
}

export interface ZoneDetails extends ZoneSummary {
  admin_email: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
  default_ttl: number;
  nameservers: string[];
  dnssec_enabled: boolean;
}

export interface CreateRecordInput {
  /** Owner name: absolute (trailing dot optional) or "@" for the apex. */
  domain: string;
  type: string;
  value: string;
  /** Defaults to the zone's default_ttl. */
  ttl?: number;
}

export interface UpdateRecordInput {
  value?: string;
  ttl?: number;
}

export interface DnsRecord {
  id: string;
  domain: string;
  type: string;
  value: string;
  ttl: number;
  created_at: string;
  updated_at: string;
}

export type BatchOperation =
  | ({ operation: "create" } & CreateRecordInput)
  | ({ operation: "update"; id: string } & UpdateRecordInput)
  | { operation: "delete"; id: string };

export type BatchStatus = "created" | "updated" | "deleted" | "failed" | "rolled_back" | "skipped";

export interface BatchResult {
  operation: string;
  /** The record's id; absent for a create that did not happen. */
  id?: string;
  status: BatchStatus;
  /** On the failed operation: the error message. */
  error?: string;
}

/** Largest number of operations in one batch. */
export const MAX_BATCH = 1000;

/**
 * A batch failed and nothing was applied. `results` has one entry per
 * operation ("rolled_back" before the failure, "failed" at it, "skipped"
 * after it); `cause` is the domain error of the failed operation and decides
 * the HTTP status.
 */
export class BatchError extends DomainError {
  override name = "BatchError";
  constructor(
    message: string,
    readonly results: BatchResult[],
    readonly index: number,
    override readonly cause: DomainError,
  ) {
    super(message);
  }
}

export interface ImportResult {
  zone: string;
  created: boolean;
  added: number;
  skipped: number;
  removed: number;
  serial: number;
}

interface ZoneRow extends SoaTimers {
  name: string;
  admin_email: string;
  serial: number;
  nameservers: string;
  ns_ttl: number | null;
  mname: string | null;
  dnssec_enabled: number;
  created_at: number;
  updated_at: number;
}

interface RecordRow {
  id: string;
  zone: string;
  name: string;
  type: string;
  value: string;
  ttl: number;
  created_at: number;
  updated_at: number;
}

function toRecord(r: RecordRow): DnsRecord {
  return {
    id: r.id,
    domain: r.name,
    type: r.type,
    value: r.value,
    ttl: r.ttl,
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

const TIMER_KEYS = ["refresh", "retry", "expire", "minimum", "default_ttl"] as const;

export class DnsService {
  constructor(
    private readonly store: Store,
    private readonly audit: AuditLog,
    private readonly events: EventBus,
    private readonly clock: Clock,
    private readonly options: DnsServiceOptions,
    private readonly index?: ZoneInvalidator,
  ) {}

  // ---- zones ----

  /** Every zone with its record count, by name. */
  listZones(): ZoneSummary[] {
    return this.store.all<{ name: string; created_at: number; updated_at: number; n: number }>(
      `SELECT z.name, z.created_at, z.updated_at, (SELECT count(*) FROM dns_records r WHERE r.zone = z.name) AS n
       FROM dns_zones z ORDER BY z.name`,
    ).map((z) => ({
      name: z.name,
      records_count: z.n,
      created_at: isoTime(z.created_at),
      updated_at: isoTime(z.updated_at),
    }));
  }

  /** One zone with all fields; NotFoundError when absent. */
  getZone(name: string): ZoneDetails {
    return this.details(this.zoneRow(name));
  }

  /** Creates a zone with its SOA (records_count 1) and the configured apex NS. */
  createZone(actor: string, input: CreateZoneInput): ZoneDetails {
    const name = normalizeZoneName(input.name, "name");
    const timers = { ...SOA_DEFAULTS };
    for (const k of TIMER_KEYS) if (input[k] !== undefined) timers[k] = input[k]!;
    validateTimers(timers);
    const admin_email = normalizeEmail(input.admin_email);
    const nameservers = this.nameserversFor(name, input.nameservers);
    const now = this.clock.now();
    return this.store.tx(() => {
      if (this.findZone(name)) throw new ConflictError(`Zone "${name}" already exists`);
      const row = this.insertZone({
        name,
        admin_email,
        serial: nextSerial(0, now),
        ...timers,
        nameservers: JSON.stringify(nameservers),
        ns_ttl: null,
        mname: null,
        dnssec_enabled: 0,
        created_at: now,
        updated_at: now,
      });
      this.audit.record({
        actor,
        event_type: "dns.zone.created",
        message: `Created zone "${name}"`,
        resource_type: "dns_zone",
        resource_id: name,
      });
      this.changed(name, "created", row.serial);
      return this.details(row);
    });
  }

  /** Updates SOA fields and nameservers; bumps the serial. */
  updateZone(actor: string, name: string, input: UpdateZoneInput): ZoneDetails {
    return this.store.tx(() => {
      const z = this.zoneRow(name);
      const timers: SoaTimers = {
        refresh: z.refresh,
        retry: z.retry,
        expire: z.expire,
        minimum: z.minimum,
        default_ttl: z.default_ttl,
      };
      for (const k of TIMER_KEYS) if (input[k] !== undefined) timers[k] = input[k]!;
      validateTimers(timers);
      const admin_email = input.admin_email === undefined
        ? z.admin_email
        : normalizeEmail(input.admin_email);
      const nameservers = input.nameservers === undefined
        ? z.nameservers
        : JSON.stringify(this.nameserversFor(z.name, input.nameservers));
      this.store.run(
        `UPDATE dns_zones SET admin_email = ?, refresh = ?, retry = ?, expire = ?, minimum = ?, default_ttl = ?,
         nameservers = ? WHERE name = ?`,
        admin_email,
        timers.refresh,
        timers.retry,
        timers.expire,
        timers.minimum,
        timers.default_ttl,
        nameservers,
        z.name,
      );
      const changed = Object.keys(input).filter((k) =>
        (input as Record<string, unknown>)[k] !== undefined
      );
      const serial = this.bump(z.name);
      this.audit.record({
        actor,
        event_type: "dns.zone.updated",
        message: `Updated zone "${z.name}" (${changed.join(", ") || "no fields"})`,
        resource_type: "dns_zone",
        resource_id: z.name,
      });
      this.changed(z.name, "updated", serial);
      return this.details(this.zoneRow(z.name));
    });
  }

  /** Deletes a zone and all its records. */
  deleteZone(actor: string, name: string): { success: true; message: string } {
    return this.store.tx(() => {
      const z = this.zoneRow(name);
      this.store.run("DELETE FROM dns_zones WHERE name = ?", z.name);
      this.audit.record({
        actor,
        event_type: "dns.zone.deleted",
        message: `Deleted zone "${z.name}"`,
        resource_type: "dns_zone",
        resource_id: z.name,
      });
      this.changed(z.name, "deleted", z.serial);
      return { success: true as const, message: `Zone "${z.name}" deleted` };
    });
  }

  // ---- records ----

  /** The zone's records (SOA first), optionally only those of `type`. */
  listRecords(zone: string, type?: string): { zone: string; records: DnsRecord[] } {
    const z = this.zoneRow(zone);
    const rows = type === undefined || type === ""
      ? this.store.all<RecordRow>(
        "SELECT * FROM dns_records WHERE zone = ? ORDER BY type <> 'SOA', name, type, value",
        z.name,
      )
      : this.store.all<RecordRow>(
        "SELECT * FROM dns_records WHERE zone = ? AND type = ? ORDER BY name, value",
        z.name,
        normalizeType(type),
      );
    return { zone: z.name, records: rows.map(toRecord) };
  }

  /** One record; NotFoundError when the zone or the record is absent. */
  getRecord(zone: string, id: string): DnsRecord {
    const z = this.zoneRow(zone);
    return toRecord(this.recordRow(z.name, id));
  }

  /** Creates a record after validating its data and the zone rules. */
  createRecord(actor: string, zone: string, input: CreateRecordInput): DnsRecord {
    return this.store.tx(() => {
      const z = this.zoneRow(zone);
      const row = this.insertRecord(actor, z, input);
      this.changed(z.name, "record_created", this.bump(z.name));
      return toRecord(row);
    });
  }

  /** Changes a record's value and/or TTL. */
  updateRecord(actor: string, zone: string, id: string, input: UpdateRecordInput): DnsRecord {
    return this.store.tx(() => {
      const z = this.zoneRow(zone);
      const row = this.modifyRecord(actor, z, id, input);
      this.changed(z.name, "record_updated", this.bump(z.name));
      return toRecord(row);
    });
  }

  /** Deletes a record; the SOA cannot be deleted. */
  deleteRecord(actor: string, zone: string, id: string): { success: true; message: string } {
    return this.store.tx(() => {
      const z = this.zoneRow(zone);
      this.removeRecord(actor, z, id);
      this.changed(z.name, "record_deleted", this.bump(z.name));
      return { success: true as const, message: `Record "${id}" deleted` };
    });
  }

  /** Applies all operations in one transaction, or none (throws BatchError). */
  batch(
    actor: string,
    zone: string,
    operations: BatchOperation[],
  ): { success: true; results: BatchResult[] } {
    if (!Array.isArray(operations) || operations.length === 0) {
      throw new ValidationError('Field "operations" must be a non-empty array', "operations");
    }
    if (operations.length > MAX_BATCH) {
      throw new ValidationError(
        `A batch holds at most ${MAX_BATCH} operations, got ${operations.length}`,
        "operations",
      );
    }
    return this.store.tx(() => {
      const z = this.zoneRow(zone);
      const results: BatchResult[] = [];
      for (let i = 0; i < operations.length; i++) {
        const op = operations[i];
        try {
          results.push(this.applyOperation(actor, z, op, i));
        } catch (err) {
          if (!(err instanceof DomainError)) throw err;
          const opName = String((op as { operation?: unknown })?.operation ?? "");
          const id = (op as { id?: unknown })?.id;
          const failed: BatchResult[] = [
            ...results.map((r) => ({ ...r, status: "rolled_back" as const })),
            {
              operation: opName,
              ...(typeof id === "string" ? { id } : {}),
              status: "failed",
              error: err.message,
            },
            ...operations.slice(i + 1).map((o) => {
              const oid = (o as { id?: unknown })?.id;
              return {
                operation: String((o as { operation?: unknown })?.operation ?? ""),
                ...(typeof oid === "string" ? { id: oid } : {}),
                status: "skipped" as const,
              };
            }),
          ];
          throw new BatchError(
            `Operation ${i + 1} of ${operations.length} failed: ${err.message}`,
            failed,
            i,
            err,
          );
        }
      }
      this.changed(z.name, "batch", this.bump(z.name));
      return { success: true as const, results };
    });
  }

  // ---- zone files ----

  /** The zone as an RFC 1035 master file. */
  exportZone(zone: string): string {
    const z = this.zoneRow(zone);
    const rows = this.store.all<RecordRow>(
      "SELECT * FROM dns_records WHERE zone = ? AND type <> 'SOA'",
      z.name,
    );
    const nsTtl = z.ns_ttl ?? z.default_ttl;
    const ns = (JSON.parse(z.nameservers) as string[]).map((h) => ({
      name: z.name,
      type: "NS",
      ttl: nsTtl,
      value: `${h}.`,
    }));
    return serializeZoneFile({
      name: z.name,
      default_ttl: z.default_ttl,
      soa: { ttl: z.default_ttl, value: soaValue({ ...z, primary: this.primaryOf(z) }) },
      records: [...ns, ...rows],
    });
  }

  /**
   * Loads a master file into `zone`, creating the zone from the file's SOA when
   * it does not exist. With `replace`, existing records are removed first;
   * otherwise records already present are skipped. An SOA in the file sets the
   * zone's contact and timers; apex NS set (replace) or extend (merge) the
   * nameservers. All or nothing, like a batch.
   */
  importZone(
    actor: string,
    zone: string,
    text: string,
    opts: { replace?: boolean } = {},
  ): ImportResult {
    const name = normalizeZoneName(zone, "name");
    const parsed = parseZoneFile(text, name);
    const apexNs = parsed.records.filter((r) => r.name === name && r.type === "NS");
    const others = parsed.records.filter((r) => !(r.name === name && r.type === "NS"));
    const fileNs = apexNs.map((r) => r.value.replace(/\.$/, ""));
    const now = this.clock.now();
    return this.store.tx(() => {
      let z = this.findZone(name);
      const created = !z;
      let removed = 0;
      if (!z) {
        if (!parsed.soa) {
          throw new UnprocessableError(
            `Zone "${name}" does not exist and the file has no SOA record`,
          );
        }
        const s = parsed.soa;
        const timers = {
          refresh: s.refresh,
          retry: s.retry,
          expire: s.expire,
          minimum: s.minimum,
          default_ttl: s.ttl,
        };
        validateTimers(timers);
        z = this.insertZone({
          name,
          admin_email: s.admin_email,
          serial: s.serial,
          ...timers,
          nameservers: JSON.stringify(fileNs.length ? unique(fileNs) : this.nameserversFor(name)),
          ns_ttl: null,
          mname: null,
          dnssec_enabled: 0,
          created_at: now,
          updated_at: now,
        });
      } else {
        if (opts.replace) {
          removed = this.store.run("DELETE FROM dns_records WHERE zone = ? AND type <> 'SOA'", name)
            .changes;
        }
        if (parsed.soa) {
          const s = parsed.soa;
          const timers = {
            refresh: s.refresh,
            retry: s.retry,
            expire: s.expire,
            minimum: s.minimum,
            default_ttl: s.ttl,
          };
          validateTimers(timers);
          this.store.run(
            `UPDATE dns_zones SET admin_email = ?, refresh = ?, retry = ?, expire = ?, minimum = ?, default_ttl = ?,
             mname = ? WHERE name = ?`,
            s.admin_email,
            s.refresh,
            s.retry,
            s.expire,
            s.minimum,
            s.ttl,
            s.primary,
            name,
          );
        }
        if (fileNs.length) {
          const current = JSON.parse(z.nameservers) as string[];
          const next = opts.replace ? unique(fileNs) : unique([...current, ...fileNs]);
          this.store.run(
            "UPDATE dns_zones SET nameservers = ? WHERE name = ?",
            JSON.stringify(next),
            name,
          );
        }
        z = this.zoneRow(name);
      }
      if (created && parsed.soa) {
        this.store.run("UPDATE dns_zones SET mname = ? WHERE name = ?", parsed.soa.primary, name);
      }
      // MNAME is stored only when it is not simply the first nameserver.
      this.store.run(
        "UPDATE dns_zones SET mname = NULL WHERE name = ? AND mname = json_extract(nameservers, '$[0]')",
        name,
      );
      z = this.zoneRow(name);
      if (apexNs.length) {
        const ttl = Math.min(...apexNs.map((r) => r.ttl));
        this.store.run(
          "UPDATE dns_zones SET ns_ttl = ? WHERE name = ?",
          ttl === z.default_ttl ? null : ttl,
          name,
        );
      }
      let added = 0;
      let skipped = 0;
      for (const r of others) {
        const dup = this.store.get(
          "SELECT 1 FROM dns_records WHERE zone = ? AND name = ? AND type = ? AND value = ?",
          name,
          r.name,
          r.type,
          r.value,
        );
        if (dup) {
          skipped++;
          continue;
        }
        try {
          this.checkRules(z, r.name, r.type, r.value);
        } catch (err) {
          if (err instanceof DomainError) {
            const Cls = err.constructor as new (m: string) => DomainError;
            throw new Cls(`Line ${r.line}: ${err.message}`);
          }
          throw err;
        }
        this.store.run(
          "INSERT INTO dns_records (id, zone, name, type, value, ttl, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          crypto.randomUUID(),
          name,
          r.name,
          r.type,
          r.value,
          r.ttl,
          now,
          now,
        );
        added++;
      }
      let serial: number;
      if (created) {
        serial = z.serial;
        this.writeSoa(name, now);
      } else {
        serial = nextSerial(z.serial, now);
        if (parsed.soa && serialGreater(parsed.soa.serial, serial)) serial = parsed.soa.serial;
        this.setSerial(name, serial, now);
      }
      this.audit.record({
        actor,
        event_type: "dns.zone.imported",
        message: `Imported zone "${name}" (${added} added, ${skipped} skipped, ${removed} removed${
          opts.replace ? ", replace" : ""
        })`,
        resource_type: "dns_zone",
        resource_id: name,
      });
      this.changed(name, "imported", serial);
      return { zone: name, created, added, skipped, removed, serial };
    });
  }

  // ---- internals ----

  private applyOperation(actor: string, z: ZoneRow, op: BatchOperation, i: number): BatchResult {
    const kind = (op as { operation?: unknown })?.operation;
    if (kind === "create") {
      const row = this.insertRecord(actor, z, op as CreateRecordInput);
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
      this.modifyRecord(actor, z, id, op as UpdateRecordInput);
      return { operation: "update", id, status: "updated" };
    }
    this.removeRecord(actor, z, id);
    return { operation: "delete", id, status: "deleted" };
  }

  private insertRecord(actor: string, z: ZoneRow, input: CreateRecordInput): RecordRow {
    if (typeof input.domain !== "string") {
      throw new ValidationError(`Field "domain" is required`, "domain");
    }
    if (typeof input.type !== "string") {
      throw new ValidationError(`Field "type" is required`, "type");
    }
    if (typeof input.value !== "string") {
      throw new ValidationError(`Field "value" is required`, "value");
    }
    const type = normalizeType(input.type);
    const name = ownerInZone(input.domain, z.name);
    const { value } = parseRdata(type, input.value, null);
    const ttl = validateTtl(input.ttl ?? z.default_ttl);
    this.checkRules(z, name, type, value);
    const now = this.clock.now();
    const row: RecordRow = {
      id: crypto.randomUUID(),
      zone: z.name,
      name,
      type,
      value,
      ttl,
      created_at: now,
      updated_at: now,
    };
    this.store.run(
      "INSERT INTO dns_records (id, zone, name, type, value, ttl, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      row.id,
      row.zone,
      row.name,
      row.type,
      row.value,
      row.ttl,
      row.created_at,
      row.updated_at,
    );
    this.audit.record({
      actor,
      event_type: "dns.record.created",
      message: `Created ${type} record "${name}" in zone "${z.name}"`,
      resource_type: "dns_record",
      resource_id: row.id,
    });
    return row;
  }

  private modifyRecord(actor: string, z: ZoneRow, id: string, input: UpdateRecordInput): RecordRow {
    const row = this.recordRow(z.name, id);
    if (row.type === "SOA") {
      throw new UnprocessableError("The SOA record is managed through the zone's fields");
    }
    if (input.value === undefined && input.ttl === undefined) {
      throw new ValidationError(`Give "value" or "ttl" to update`, "value");
    }
    if (input.value !== undefined && typeof input.value !== "string") {
      throw new ValidationError(`Field "value" must be a string`, "value");
    }
    const value = input.value === undefined
      ? row.value
      : parseRdata(row.type, input.value, null).value;
    const ttl = input.ttl === undefined ? row.ttl : validateTtl(input.ttl);
    if (value !== row.value) {
      const dup = this.store.get(
        "SELECT 1 FROM dns_records WHERE zone = ? AND name = ? AND type = ? AND value = ? AND id <> ?",
        z.name,
        row.name,
        row.type,
        value,
        id,
      );
      if (dup) {
        throw new ConflictError(
          `Record "${row.name}" of type "${row.type}" with value "${value}" already exists`,
        );
      }
    }
    const now = this.clock.now();
    this.store.run(
      "UPDATE dns_records SET value = ?, ttl = ?, updated_at = ? WHERE id = ?",
      value,
      ttl,
      now,
      id,
    );
    this.audit.record({
      actor,
      event_type: "dns.record.updated",
      message: `Updated ${row.type} record "${row.name}" in zone "${z.name}"`,
      resource_type: "dns_record",
      resource_id: id,
    });
    return { ...row, value, ttl, updated_at: now };
  }

  private removeRecord(actor: string, z: ZoneRow, id: string): void {
    const row = this.recordRow(z.name, id);
    if (row.type === "SOA") {
      throw new UnprocessableError("The SOA record cannot be deleted; delete the zone instead");
    }
    this.store.run("DELETE FROM dns_records WHERE id = ?", id);
    this.audit.record({
      actor,
      event_type: "dns.record.deleted",
      message: `Deleted ${row.type} record "${row.name}" from zone "${z.name}"`,
      resource_type: "dns_record",
      resource_id: id,
    });
  }

  /** The zone rules every new record must pass; throws 409 or 422. */
  private checkRules(z: ZoneRow, name: string, type: string, value: string): void {
    if (name === z.name && type === "NS") {
      throw new UnprocessableError(
        `Apex NS records of zone "${z.name}" come from the zone's nameservers; update the zone instead`,
      );
    }
    if (type === "NS" && name.startsWith("*.")) {
      throw new UnprocessableError(`Record "${name}" of type "NS" cannot have a wildcard owner`);
    }
    const types = this.store.all<{ type: string; value: string }>(
      "SELECT type, value FROM dns_records WHERE zone = ? AND name = ?",
      z.name,
      name,
    );
    if (types.some((t) => t.type === type && t.value === value)) {
      throw new ConflictError(
        `Record "${name}" of type "${type}" with value "${value}" already exists`,
      );
    }
    // RFC 1034 §3.6.2 / RFC 2181 §10.1: a CNAME owner has no other data. The
    // apex always holds the SOA and NS, so no CNAME there.
    const others = types.filter((t) => t.type !== type);
    const hasData = others.length > 0 || name === z.name;
    if (type === "CNAME" && (hasData || types.some((t) => t.type === "CNAME"))) {
      throw new ConflictError(`Record "${name}" of type "CNAME" conflicts with existing data`);
    }
    if (type !== "CNAME" && others.some((t) => t.type === "CNAME")) {
      throw new ConflictError(
        `Record "${name}" of type "${type}" conflicts with an existing CNAME`,
      );
    }
    // Below a delegation only glue (A, AAAA) may live: anything else would be
    // occluded by the cut and never served.
    if (type !== "A" && type !== "AAAA") {
      for (
        let n = parentName(name);
        n !== "" && n !== z.name && inZone(n, z.name);
        n = parentName(n)
      ) {
        if (
          this.store.get(
            "SELECT 1 FROM dns_records WHERE zone = ? AND name = ? AND type = 'NS'",
            z.name,
            n,
          )
        ) {
          throw new UnprocessableError(`Record "${name}" lies below the delegation at "${n}"`);
        }
      }
    }
  }

  private nameserversFor(zone: string, given?: string[]): string[] {
    const list = given ?? this.options.nameservers;
    if (!Array.isArray(list) || list.length === 0) {
      throw new ValidationError("A zone needs at least one nameserver", "nameservers");
    }
    return unique(
      list.map((h) => normalizeName(String(h).replaceAll("{zone}", zone), "nameservers")),
    );
  }

  private primaryOf(z: ZoneRow): string {
    return z.mname ?? (JSON.parse(z.nameservers) as string[])[0];
  }

  private insertZone(row: ZoneRow): ZoneRow {
    this.store.run(
      `INSERT INTO dns_zones (name, admin_email, serial, refresh, retry, expire, minimum, default_ttl, nameservers,
       ns_ttl, mname, dnssec_enabled, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      row.name,
      row.admin_email,
      row.serial,
      row.refresh,
      row.retry,
      row.expire,
      row.minimum,
      row.default_ttl,
      row.nameservers,
      row.ns_ttl,
      row.mname,
      row.dnssec_enabled,
      row.created_at,
      row.updated_at,
    );
    this.writeSoa(row.name, row.created_at);
    return row;
  }

  /** Rewrites the mirrored SOA row from the zone's columns. */
  private writeSoa(zone: string, now: number): void {
    const z = this.zoneRow(zone);
    const value = soaValue({ ...z, primary: this.primaryOf(z) });
    const updated = this.store.run(
      "UPDATE dns_records SET value = ?, ttl = ?, updated_at = ? WHERE zone = ? AND type = 'SOA'",
      value,
      z.default_ttl,
      now,
      zone,
    );
    if (updated.changes === 0) {
      this.store.run(
        "INSERT INTO dns_records (id, zone, name, type, value, ttl, created_at, updated_at) VALUES (?, ?, ?, 'SOA', ?, ?, ?, ?)",
        crypto.randomUUID(),
        zone,
        zone,
        value,
        z.default_ttl,
        now,
        now,
      );
    }
  }

  private setSerial(zone: string, serial: number, now: number): void {
    this.store.run(
      "UPDATE dns_zones SET serial = ?, updated_at = ? WHERE name = ?",
      serial,
      now,
      zone,
    );
    this.writeSoa(zone, now);
  }

  /** Moves the serial forward (see nextSerial) and touches updated_at; returns the new serial. */
  private bump(zone: string): number {
    const now = this.clock.now();
    const serial = nextSerial(this.zoneRow(zone).serial, now);
    this.setSerial(zone, serial, now);
    return serial;
  }

  /** After commit: reload the zone's answers, then tell subscribers. */
  private changed(zone: string, action: string, serial: number): void {
    this.store.afterCommit(() => {
      this.index?.invalidate(zone);
      this.events.emit("ZoneChanged", { zone, action, serial });
    });
  }

  private findZone(name: string): ZoneRow | undefined {
    return this.store.get<ZoneRow>("SELECT * FROM dns_zones WHERE name = ?", name);
  }

  private zoneRow(name: string): ZoneRow {
    let key: string;
    try {
      key = normalizeZoneName(name, "name");
    } catch {
      throw new NotFoundError(`Zone "${name}" not found`);
    }
    const z = this.findZone(key);
    if (!z) throw new NotFoundError(`Zone "${name}" not found`);
    return z;
  }

  private recordRow(zone: string, id: string): RecordRow {
    const r = this.store.get<RecordRow>(
      "SELECT * FROM dns_records WHERE zone = ? AND id = ?",
      zone,
      id,
    );
    if (!r) throw new NotFoundError(`Record "${id}" not found in zone "${zone}"`);
    return r;
  }

  private details(z: ZoneRow): ZoneDetails {
    const n =
      this.store.get<{ n: number }>("SELECT count(*) AS n FROM dns_records WHERE zone = ?", z.name)!
        .n;
    return {
      name: z.name,
      admin_email: z.admin_email,
      serial: z.serial,
      refresh: z.refresh,
      retry: z.retry,
      expire: z.expire,
      minimum: z.minimum,
      default_ttl: z.default_ttl,
      records_count: n,
      nameservers: JSON.parse(z.nameservers),
      dnssec_enabled: z.dnssec_enabled === 1,
      created_at: isoTime(z.created_at),
      updated_at: isoTime(z.updated_at),
    };
  }
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
