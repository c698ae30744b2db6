/**
 * The PowerDNS-compatible API (docs/dns.md, "PowerDNS-compatible API") over
 * Palisade's zones and records: what each route of
 * /api/v1/servers/localhost/… does, each decided from the key's scope with
 * `requirePdnsScope` (scope_check.ts). Zone names in and out carry the
 * trailing dot; the mapping of JSON to records is in the modules beside this.
 */
import { NotFoundError, ValidationError } from "../../errors.ts";
import { type KeyScope, zoneInScope } from "../api_keys/scope.ts";
import { type DnsContext, zoneOf } from "../dns_context.ts";
import { createZone, deleteZone } from "../zones.ts";
import type { ZoneRow } from "../zone_repo.ts";
import { canonicalName, zoneFromId } from "./names.ts";
import { applyRRsetChanges } from "./rrset_apply.ts";
import { readRRsetChanges } from "./rrset_changes.ts";
import { requirePdnsScope } from "./scope_check.ts";
import { checkZoneFields } from "./zone_fields.ts";
import {
  exportText,
  type FlatRecord,
  type PdnsRRset,
  rrsetsOf,
  zoneDetail,
  zoneListEntry,
} from "./zone_json.ts";

type Body = Record<string, unknown>;

/** The PowerDNS release whose API answers are matched (tests/dns/pdns_differential_test.ts). */
export const PDNS_VERSION = "4.7.3";

/** SOA timers and TTL of zones made through this API: PowerDNS's defaults. */
const PDNS_SOA = { refresh: 10800, retry: 3600, expire: 604800, minimum: 3600, default_ttl: 3600 };

export interface RRsetFilter {
  rrsets?: boolean;
  name?: string;
  type?: string;
}

export class PdnsApi {
  constructor(private readonly ctx: DnsContext) {}

  /** GET /servers/localhost. */
  server(scope: KeyScope | undefined): Record<string, unknown> {
    requirePdnsScope(scope, "listing");
    return {
      autoprimaries_url: "/api/v1/servers/localhost/autoprimaries{/autoprimary}",
      config_url: "/api/v1/servers/localhost/config{/config_setting}",
      daemon_type: "authoritative",
      id: "localhost",
      type: "Server",
      url: "/api/v1/servers/localhost",
      // The PowerDNS release whose API this follows: clients (octoDNS) read features from it.
      version: PDNS_VERSION,
      zones_url: "/api/v1/servers/localhost/zones{/zone}",
    };
  }

  /** GET /zones (?zone= one name): the zones in the key's scope. */
  async listZones(scope: KeyScope | undefined, only?: string): Promise<unknown[]> {
    const s = requirePdnsScope(scope, "listing");
    const want = only === undefined ? undefined : zoneFromId(only);
    const out = [];
    for (const name of await this.ctx.zones.names()) {
      if ((want !== undefined && name !== want) || !zoneInScope(s, name)) continue;
      const z = await this.ctx.zones.get(name);
      if (z) out.push(zoneListEntry(facts(z)));
    }
    return out;
  }

  /** GET /zones/{zone_id}: the zone with its RRsets in scope. */
  async getZone(scope: KeyScope | undefined, id: string, filter: RRsetFilter = {}) {
    const z = await this.#zone(id);
    const s = requirePdnsScope(scope, { access: "read", zone: z.name });
    if (filter.rrsets === false) return zoneDetail(facts(z), null);
    let sets = rrsetsOf(await this.#records(z), s);
    if (filter.name !== undefined) {
      const n = filter.name.toLowerCase();
      sets = sets.filter((r) => r.name === n);
    }
    if (filter.type !== undefined) sets = sets.filter((r) => r.type === filter.type);
    return zoneDetail(facts(z), sets);
  }

  /** POST /zones: creates the zone (SOA, NS, optional RRsets) in one transaction. */
  async createZone(actor: string, scope: KeyScope | undefined, body: Body) {
    const shown = canonicalName(body.name);
    const name = zoneFromId(shown);
    requirePdnsScope(scope, { access: "write" });
    requirePdnsScope(scope, { access: "write", zone: name });
    checkZoneFields(body);
    const changes = readRRsetChanges(body.rrsets, name, false);
    const ns = body.nameservers === undefined ? [] : body.nameservers;
    if (!Array.isArray(ns)) throw new ValidationError("Nameservers is not a list", "nameservers");
    const nameservers = ns.map((n) => canonicalName(n));
    // Apex NS given as an RRset stand in for `nameservers`; neither: PALISADE_DNS_NAMESERVERS.
    const apexNs = changes.find((c) => c.type === "NS" && c.name === name)?.contents ?? [];
    const given = nameservers.length > 0 ? nameservers : apexNs;
    await this.ctx.transactor.tx(async () => {
      await createZone(this.ctx, actor, {
        name,
        admin_email: `hostmaster@${name}`,
        ...PDNS_SOA,
        nameservers: given.length > 0 ? given.map((n) => n.replace(/\.$/, "")) : undefined,
      });
      await applyRRsetChanges(this.ctx, actor, await zoneOf(this.ctx, name), changes);
    });
    await this.ctx.index?.settled();
    return await this.getZone(scope, shown);
  }

  /** DELETE /zones/{zone_id}. */
  async deleteZone(actor: string, scope: KeyScope | undefined, id: string): Promise<null> {
    const z = await this.#zone(id);
    requirePdnsScope(scope, { access: "write", zone: z.name });
    await deleteZone(this.ctx, actor, z.name);
    await this.ctx.index?.settled();
    return null;
  }

  /** PATCH /zones/{zone_id}: every RRset change in one transaction, one serial bump. */
  async patchZone(actor: string, scope: KeyScope | undefined, id: string, body: Body) {
    const z = await this.#zone(id);
    const changes = readRRsetChanges(body.rrsets, z.name);
    for (const c of changes) {
      requirePdnsScope(scope, { access: "write", zone: z.name, type: c.type, name: c.name });
    }
    await this.ctx.transactor.tx(async () => {
      await applyRRsetChanges(this.ctx, actor, await zoneOf(this.ctx, z.name), changes);
    });
    await this.ctx.index?.settled();
    return null;
  }

  /** PUT /zones/{zone_id}: zone fields; only those Palisade honours anyway are accepted. */
  async putZone(scope: KeyScope | undefined, id: string, body: Body): Promise<null> {
    const z = await this.#zone(id);
    requirePdnsScope(scope, { access: "write", zone: z.name });
    checkZoneFields(body);
    return null;
  }

  /** GET /zones/{zone_id}/export: the RRsets in scope as zone-file lines. */
  async exportZone(scope: KeyScope | undefined, id: string): Promise<string> {
    const z = await this.#zone(id);
    const s = requirePdnsScope(scope, { access: "read", zone: z.name });
    return exportText(rrsetsOf(await this.#records(z), s));
  }

  /** PUT /zones/{zone_id}/notify: NOTIFY to the configured secondaries, through the notifier. */
  async notify(scope: KeyScope | undefined, id: string): Promise<{ result: string }> {
    const z = await this.#zone(id);
    // NOTIFY changes nothing: a key that may write some records of the zone may ask the
    // secondaries to look (lego's ACME-only key does after each change); a read-only one may not.
    const granted = requirePdnsScope(scope, { access: "read", zone: z.name });
    if (granted.access !== "write") requirePdnsScope(scope, { access: "write", zone: z.name });
    // The notifier (server/listeners/dns/notify.ts) sends on ZoneChanged; the serial is unchanged.
    this.ctx.events.emit("ZoneChanged", { zone: z.name, action: "notify", serial: z.serial });
    return { result: "Notification queued" };
  }

  async #zone(id: string): Promise<ZoneRow> {
    const z = await this.ctx.zones.get(zoneFromId(id));
    if (!z) throw new NotFoundError(`Could not find domain '${id}'`);
    return z;
  }

  /** Every record of the zone, SOA and apex NS included. */
  async #records(z: ZoneRow): Promise<FlatRecord[]> {
    const rows: FlatRecord[] = (await this.ctx.records.list(z.name)).map((r) => ({
      name: r.name,
      type: r.type,
      ttl: r.ttl,
      value: r.value,
    }));
    const ttl = z.ns_ttl ?? z.default_ttl;
    for (const ns of z.nameservers) rows.push({ name: z.name, type: "NS", ttl, value: `${ns}.` });
    return rows;
  }
}

/** What the zone's JSON is made of. */
function facts(z: ZoneRow) {
  return { name: z.name, serial: z.serial, dnssec: z.dnssec_enabled };
}

export type { PdnsRRset };
