/**
 * A zone's DNSSEC state through the API (docs/dns.md, "DNSSEC"): its status
 * (keys and the DS records for the parent), enabling (a new KSK and ZSK, or
 * the kept ones) and disabling. Disabling keeps the keys: enabling again with
 * the same algorithm reuses them, so a DS left at the registrar is valid
 * again. Each change bumps the serial in its transaction with its audit
 * record, and after commit the answer index reloads the zone's keys. Key
 * rollover is rollover.ts.
 */
import { isoTime } from "../../clock.ts";
import { ConflictError, ValidationError } from "../../errors.ts";
import { type DnsContext, zoneChanged, zoneOf } from "../dns_context.ts";
import { bumpSerial } from "../soa_serial.ts";
import { KEY_SIZES, keySize, parseAlgorithm } from "./algorithms.ts";
import { digestTypes, type DsRecord, dsRecord } from "./ds.ts";
import { keyPage, type KeyPageInfo, type KeyPageQuery } from "./key_page.ts";
import type { DnssecKeyRow, KeyState, StoredKey } from "./key_repo.ts";
import { dnskeyOf, newKey } from "./keys.ts";
import { rolloverOf, type RolloverView, ROTATION_DAYS } from "./rollover.ts";
import { ALGORITHM_NAMES, type DnssecAlgorithm, type KeyType } from "./types.ts";

/** A key as the API shows it (specs/dns.md, "DNSSEC key"), with what a registrar's DNSKEY form asks. */
export interface DnssecKey {
  id: string;
  algorithm: string;
  key_type: KeyType;
  bits: number;
  created_at: string;
  /** When a rollover removes the key (its `remove_at`); null while none is scheduled. */
  expires_at: string | null;
  /** RFC 7583: published (in the DNSKEY RRset only), active (signing), retired, removed. */
  state: KeyState;
  publish_at: string;
  activate_at: string;
  retire_at: string | null;
  remove_at: string | null;
  key_tag: number;
  flags: number;
  /** Base64 of the DNSKEY public key field. */
  public_key: string;
}

export interface DnssecStatus extends KeyPageInfo {
  enabled: boolean;
  /** Every key, or the page `keys_limit` and `keys_cursor` or `keys_offset` ask for (key_page.ts). */
  keys: DnssecKey[];
  /** The DS records to hand to the parent; empty while DNSSEC is off. */
  ds_records: DsRecord[];
  /** The ZSK rollover under way, or null. */
  rollover: RolloverView | null;
  /** Days the active ZSK signs before a rollover starts by itself; null when off. */
  zsk_rotation_days: number | null;
  /** Only in the answer that turns DNSSEC off: what to do at the registrar. */
  warning?: string;
}

export interface DnssecInput {
  enable: boolean;
  /** Mnemonic or number as a string; ECDSAP256SHA256 when absent. */
  algorithm?: string;
  /** RSA modulus length; 256 or absent for the others. */
  key_size?: number;
  /** Automatic ZSK rotation: 1 to 3650 days, or null for none; absent keeps it. */
  zsk_rotation_days?: number | null;
}

/** Why turning DNSSEC off is the second step: the parent's DS must go first. */
export const DISABLE_WARNING =
  "The zone is now served unsigned: remove its DS records at the registrar, or validating resolvers will treat the zone as bogus. The keys are kept, so enabling again with the same algorithm makes the current DS valid again";

/** The zone's DNSSEC status, its keys paged by `query`; NotFoundError when the zone is absent. */
export async function dnssecStatus(
  ctx: DnsContext,
  name: string,
  query?: KeyPageQuery,
): Promise<DnssecStatus> {
  const z = await zoneOf(ctx, name);
  return await statusOf(ctx, z.name, z.dnssec_enabled, query);
}

/** Turns DNSSEC on or off for a zone (see the module comment). */
export async function setDnssec(
  ctx: DnsContext,
  actor: string,
  name: string,
  input: DnssecInput,
): Promise<DnssecStatus> {
  const z = await zoneOf(ctx, name);
  // Checked when disabling too: a request with a field the API refuses is refused whole.
  const algorithm = parseAlgorithm(input.algorithm);
  const bits = input.key_size === undefined ? undefined : keySize(algorithm, input.key_size);
  const days = rotationDays(input.zsk_rotation_days);
  if (!input.enable) return await disable(ctx, actor, z.name, days);
  let fresh: StoredKey[] | undefined;
  if (!z.dnssec_enabled && !reusable(await ctx.dnssecKeys.list(z.name), algorithm, bits)) {
    // Generated before the transaction: other requests run while an RSA key is made.
    const size = bits ?? KEY_SIZES[algorithm].default;
    const now = ctx.clock.now();
    fresh = await Promise.all(
      (["KSK", "ZSK"] as const).map((t) => newKey(z.name, t, algorithm, size, now)),
    );
  }
  return await enable(ctx, actor, z.name, { algorithm, bits, days }, fresh);
}

function rotationDays(days: number | null | undefined): number | null | undefined {
  if (days === undefined || days === null) return days;
  if (!Number.isInteger(days) || days < ROTATION_DAYS.min || days > ROTATION_DAYS.max) {
    throw new ValidationError(
      `zsk_rotation_days must be an integer from ${ROTATION_DAYS.min} to ${ROTATION_DAYS.max}, or null`,
      "zsk_rotation_days",
    );
  }
  return days;
}

/** Stores automatic rotation when the request sets it to something new, with its audit record. */
async function setRotation(
  ctx: DnsContext,
  actor: string,
  zone: string,
  days: number | null | undefined,
): Promise<void> {
  if (days === undefined || await ctx.zones.zskRotationDays(zone) === days) return;
  await ctx.zones.setZskRotationDays(zone, days);
  await ctx.audit.add({
    actor,
    event_type: "dns.dnssec.updated",
    message: days === null
      ? `Turned automatic ZSK rotation of zone "${zone}" off`
      : `Set automatic ZSK rotation of zone "${zone}" to every ${days} days`,
    resource_type: "dns_zone",
    resource_id: zone,
  });
}

/**
 * Whether the zone's keys can serve a request for `algorithm` (and `bits`,
 * when given): all of that algorithm and size, an active KSK and ZSK among them.
 */
function reusable(keys: DnssecKeyRow[], algorithm: DnssecAlgorithm, bits?: number): boolean {
  const fit = keys.every((k) =>
    k.algorithm === algorithm && (bits === undefined || k.bits === bits)
  );
  const active = (t: KeyType) => keys.some((k) => k.key_type === t && k.state === "active");
  return fit && active("KSK") && active("ZSK");
}

interface Wanted {
  algorithm: DnssecAlgorithm;
  bits: number | undefined;
  days: number | null | undefined;
}

async function enable(
  ctx: DnsContext,
  actor: string,
  name: string,
  { algorithm, bits, days }: Wanted,
  fresh: StoredKey[] | undefined,
): Promise<DnssecStatus> {
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, name);
    const kept = await ctx.dnssecKeys.list(z.name);
    const reuse = reusable(kept, algorithm, bits);
    if (z.dnssec_enabled) {
      if (reuse) {
        await setRotation(ctx, actor, z.name, days);
        return await statusOf(ctx, z.name, true);
      }
      const field = kept.some((k) => k.algorithm !== algorithm) ? "algorithm" : "key_size";
      throw new ConflictError(
        `DNSSEC of zone "${z.name}" is already enabled with other keys: changing the algorithm or key size needs an algorithm rollover, which is not supported`,
        { field, code: "dnssec_enabled" },
      );
    }
    if (!reuse) {
      // The keys changed while new ones were being made (another request): the caller may retry.
      if (!fresh) throw new ConflictError(`DNSSEC keys of zone "${z.name}" changed meanwhile`);
      await ctx.dnssecKeys.deleteAll(z.name);
      for (const k of fresh) await ctx.dnssecKeys.insert(k);
    }
    await ctx.zones.setDnssecEnabled(z.name, true);
    await setRotation(ctx, actor, z.name, days);
    const tags = (await ctx.dnssecKeys.list(z.name)).map((k) => `${k.key_type} ${k.key_tag}`)
      .join(", ");
    await ctx.audit.add({
      actor,
      event_type: "dns.dnssec.enabled",
      message: `Enabled DNSSEC on zone "${z.name}" with ${reuse ? "its kept" : "new"} ${
        ALGORITHM_NAMES[algorithm]
      } keys (${tags})`,
      resource_type: "dns_zone",
      resource_id: z.name,
    });
    await zoneChanged(ctx, z.name, "dnssec_enabled", await bumpSerial(ctx, z.name));
    return await statusOf(ctx, z.name, true);
  });
}

async function disable(
  ctx: DnsContext,
  actor: string,
  name: string,
  days: number | null | undefined,
): Promise<DnssecStatus> {
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, name);
    await setRotation(ctx, actor, z.name, days);
    if (!z.dnssec_enabled) return await statusOf(ctx, z.name, false);
    await ctx.zones.setDnssecEnabled(z.name, false);
    await ctx.audit.add({
      actor,
      event_type: "dns.dnssec.disabled",
      message: `Disabled DNSSEC on zone "${z.name}" (keys kept)`,
      resource_type: "dns_zone",
      resource_id: z.name,
    });
    await zoneChanged(ctx, z.name, "dnssec_disabled", await bumpSerial(ctx, z.name));
    return { ...await statusOf(ctx, z.name, false), warning: DISABLE_WARNING };
  });
}

async function statusOf(
  ctx: DnsContext,
  zone: string,
  enabled: boolean,
  query?: KeyPageQuery,
): Promise<DnssecStatus> {
  const rows = await ctx.dnssecKeys.listWithRemoved(zone);
  const { keys, ...keyInfo } = keyPage(rows, query);
  const live = rows.filter((k) => k.state !== "removed");
  const ds_records = enabled
    ? live.filter((k) => k.key_type === "KSK").flatMap((k) =>
      digestTypes(k.algorithm).map((t) => dsRecord(zone, dnskeyOf(k), t))
    )
    : [];
  return {
    enabled,
    keys: keys.map(keyView),
    ...keyInfo,
    ds_records,
    rollover: rolloverOf(live),
    zsk_rotation_days: await ctx.zones.zskRotationDays(zone),
  };
}

function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : isoTime(ms);
}

function keyView(k: DnssecKeyRow): DnssecKey {
  return {
    id: k.id,
    algorithm: ALGORITHM_NAMES[k.algorithm],
    key_type: k.key_type,
    bits: k.bits,
    created_at: isoTime(k.created_at),
    expires_at: isoOrNull(k.expires_at),
    state: k.state,
    publish_at: isoTime(k.publish_at),
    activate_at: isoTime(k.activate_at),
    retire_at: isoOrNull(k.retire_at),
    remove_at: isoOrNull(k.remove_at),
    key_tag: k.key_tag,
    flags: k.flags,
    public_key: k.public_key,
  };
}
