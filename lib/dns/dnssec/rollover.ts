/**
 * ZSK pre-publish rollover (RFC 7583 §3.2; docs/dns.md, "Rollover").
 * `rotateZsk` publishes a new ZSK and schedules the switch and the old key's
 * removal in the key rows; `advanceRollovers` (run by the scheduler,
 * rollover_scheduler.ts) applies every step that is due. Each step is its own
 * transaction with a serial bump, an audit record and a `ZoneChanged` event,
 * so answers, transfers and NOTIFY follow. The times live in the store only:
 * a restart loses nothing, it applies what fell due meanwhile.
 *
 *   published ──activate_at──▶ active ──retire_at──▶ retired ──remove_at──▶ removed
 *
 * Times here are milliseconds since the epoch; TTLs and waits are seconds.
 */
import { isoTime } from "../../clock.ts";
import { ConflictError } from "../../errors.ts";
import { type DnsContext, zoneOf } from "../dns_context.ts";
import { bumpSerial } from "../soa_serial.ts";
import type { ZoneRow } from "../zone_repo.ts";
import type { DnssecKeyRow, KeyState } from "./key_repo.ts";
import { newKey } from "./keys.ts";

/** The propagation delay when the context sets none (the setting's default). */
export const DEFAULT_PROPAGATION_DELAY = 3600;

/** The actor of the steps the scheduler takes. */
export const SYSTEM_ACTOR = "system";

const DAY_MS = 86_400_000;

/** Bounds of a zone's `zsk_rotation_days` (automatic rotation). */
export const ROTATION_DAYS = { min: 1, max: 3650 };

/** `POST /zones/{name}/dnssec/rotate` (specs/dns.md). */
export interface RotateResult {
  success: true;
  message: string;
  old_key_id: string;
  new_key_id: string;
  /** When the old ZSK leaves the DNSKEY RRset (its `remove_at`). */
  rollover_completion_date: string;
}

/** A rollover under way, as the status shows it. */
export interface RolloverView {
  old_key_id: string;
  new_key_id: string | null;
  completion_date: string;
}

/** The TTLs (seconds) the waits depend on. */
export interface ZoneTtls {
  /** TTL of the SOA and of the DNSKEY, CDS and CDNSKEY RRsets. */
  default_ttl: number;
  /** SOA minimum: with the SOA's TTL, the NSEC TTL (RFC 9077). */
  minimum: number;
  /** TTL of the apex NS RRset; null is default_ttl. */
  ns_ttl: number | null;
  /** The largest TTL of the zone's records but the SOA. */
  maxDataTtl: number;
}

/**
 * Ipub (RFC 7583 §3.2.1): how long a new ZSK is published before it signs,
 * so that every cache holding the DNSKEY RRset has the one with it.
 */
export function publishWait(z: ZoneTtls, delay: number): number {
  return delay + z.default_ttl;
}

/** The largest TTL any RRset signed by the ZSK is served with, negative answers' NSEC and SOA too. */
export function maxSignedTtl(z: ZoneTtls): number {
  const nsec = Math.min(z.default_ttl, z.minimum);
  return Math.max(z.default_ttl, z.ns_ttl ?? z.default_ttl, nsec, z.maxDataTtl);
}

/**
 * Iret (RFC 7583 §3.2.1): how long an old ZSK stays published after it has
 * stopped signing, until every signature made with it has left the caches.
 */
export function retireWait(z: ZoneTtls, delay: number): number {
  return delay + maxSignedTtl(z);
}

/** The zone's TTLs as served now. */
export async function ttlsOf(ctx: DnsContext, z: ZoneRow): Promise<ZoneTtls> {
  return {
    default_ttl: z.default_ttl,
    minimum: z.minimum,
    ns_ttl: z.ns_ttl,
    maxDataTtl: await ctx.records.maxDataTtl(z.name),
  };
}

function delayOf(ctx: DnsContext): number {
  return ctx.propagationDelay ?? DEFAULT_PROPAGATION_DELAY;
}

/** A ZSK that takes part in a rollover: the incoming one, or one scheduled to go. */
function rolling(k: DnssecKeyRow): boolean {
  return k.key_type === "ZSK" &&
    (k.state === "published" || k.state === "retired" ||
      (k.state === "active" && k.retire_at !== null));
}

/** The rollover under way among a zone's keys, or null. */
export function rolloverOf(keys: DnssecKeyRow[]): RolloverView | null {
  const old = keys.find((k) => rolling(k) && k.state !== "published");
  if (!old || old.remove_at === null) return null;
  const incoming = keys.find((k) => k.key_type === "ZSK" && k.state === "published") ??
    keys.find((k) => k.key_type === "ZSK" && k.state === "active" && k.retire_at === null);
  return {
    old_key_id: old.id,
    new_key_id: incoming?.id ?? null,
    completion_date: isoTime(old.remove_at),
  };
}

/** Whether automatic rotation every `days` starts a rollover now: the active ZSK has signed that long. */
export function rotationDue(keys: DnssecKeyRow[], days: number, now: number): boolean {
  if (keys.some(rolling)) return false;
  const active = keys.find((k) => k.key_type === "ZSK" && k.state === "active");
  return active !== undefined && now >= active.activate_at + days * DAY_MS;
}

/** The active ZSK a rollover would replace; ConflictError when DNSSEC is off or a rollover runs. */
async function replaceable(ctx: DnsContext, z: ZoneRow): Promise<DnssecKeyRow> {
  if (!z.dnssec_enabled) {
    throw new ConflictError(`DNSSEC of zone "${z.name}" is not enabled`, {
      field: "enable",
      code: "dnssec_disabled",
    });
  }
  const keys = await ctx.dnssecKeys.list(z.name);
  if (keys.some(rolling)) {
    const under = rolloverOf(keys);
    const until = under ? ` until "${under.completion_date}"` : "";
    throw new ConflictError(`A ZSK rollover of zone "${z.name}" is in progress${until}`, {
      code: "rollover_in_progress",
    });
  }
  const active = keys.find((k) => k.key_type === "ZSK" && k.state === "active");
  if (!active) {
    throw new ConflictError(`Zone "${z.name}" has no active ZSK to replace`, {
      code: "dnssec_disabled",
    });
  }
  return active;
}

/**
 * Starts a ZSK rollover: a new ZSK of the same algorithm and size, published
 * now and signing after Ipub, when the old one retires; the old one is
 * removed Iret later. ConflictError when DNSSEC is off or a rollover runs.
 */
export async function rotateZsk(
  ctx: DnsContext,
  actor: string,
  name: string,
): Promise<RotateResult> {
  const z = await zoneOf(ctx, name);
  const old = await replaceable(ctx, z);
  // Generated before the transaction: other requests run while an RSA key is made.
  const fresh = await newKey(z.name, "ZSK", old.algorithm, old.bits, ctx.clock.now());
  return await ctx.transactor.tx(async () => {
    const z = await zoneOf(ctx, name);
    const old = await replaceable(ctx, z);
    if (old.algorithm !== fresh.algorithm || old.bits !== fresh.bits) {
      throw new ConflictError(`DNSSEC keys of zone "${z.name}" changed meanwhile`);
    }
    const now = ctx.clock.now();
    const ttls = await ttlsOf(ctx, z);
    const activateAt = now + publishWait(ttls, delayOf(ctx)) * 1000;
    const removeAt = activateAt + retireWait(ttls, delayOf(ctx)) * 1000;
    await ctx.dnssecKeys.insert({
      ...fresh,
      state: "published",
      created_at: now,
      publish_at: now,
      activate_at: activateAt,
    });
    await ctx.dnssecKeys.schedule(old.id, activateAt, removeAt);
    const message =
      `ZSK rollover of zone "${z.name}" started: ZSK ${fresh.key_tag} is published and signs from "${
        isoTime(activateAt)
      }", when ZSK ${old.key_tag} retires; ZSK ${old.key_tag} leaves the DNSKEY RRset at "${
        isoTime(removeAt)
      }"`;
    await ctx.audit.add({
      actor,
      event_type: "dns.dnssec.rotated",
      message,
      resource_type: "dns_zone",
      resource_id: z.name,
    });
    await announce(ctx, z.name, ["dnssec_rotated"], await bumpSerial(ctx, z.name));
    return {
      success: true,
      message,
      old_key_id: old.id,
      new_key_id: fresh.id,
      rollover_completion_date: isoTime(removeAt),
    };
  });
}

/** One due step of a key. */
export interface Step {
  key: DnssecKeyRow;
  to: Exclude<KeyState, "published">;
  /** For a key retiring: when it is to be removed. */
  removeAt?: number;
}

/**
 * The steps due at `now` among a zone's keys (not removed), in the order
 * they apply. A key retires only while another of its type signs after the
 * step, so a zone never goes without a signing ZSK. A step taken late (the
 * server was down) makes the removal wait a whole Iret (`iretMs`) from the
 * actual retirement: caches, and secondaries that kept serving, may hold
 * signatures of the old key made until then.
 */
export function dueSteps(keys: DnssecKeyRow[], now: number, iretMs: number): Step[] {
  const activating = keys.filter((k) => k.state === "published" && k.activate_at <= now);
  const retiring = (k: DnssecKeyRow) =>
    k.state === "active" && k.retire_at !== null && k.retire_at <= now;
  const steps: Step[] = activating.map((key) => ({ key, to: "active" }));
  for (const key of keys.filter(retiring)) {
    const successor = keys.some((o) =>
      o.id !== key.id && o.key_type === key.key_type &&
      (activating.includes(o) || (o.state === "active" && !retiring(o)))
    );
    if (!successor) continue;
    steps.push({ key, to: "retired", removeAt: Math.max(key.remove_at ?? 0, now + iretMs) });
  }
  for (const key of keys) {
    if (key.state === "retired" && key.remove_at !== null && key.remove_at <= now) {
      steps.push({ key, to: "removed" });
    }
  }
  return steps;
}

const WORDS = { active: "activated", retired: "retired", removed: "removed" } as const;

/** Applies the steps due in `zone` in one transaction; returns them. */
export async function advanceZone(ctx: DnsContext, zone: string): Promise<Step[]> {
  return await ctx.transactor.tx(async () => {
    const z = await ctx.zones.get(zone);
    if (!z) return [];
    const now = ctx.clock.now();
    const iretMs = retireWait(await ttlsOf(ctx, z), delayOf(ctx)) * 1000;
    const steps = dueSteps(await ctx.dnssecKeys.list(zone), now, iretMs);
    if (steps.length === 0) return [];
    for (const { key, to, removeAt } of steps) {
      if (to === "active") await ctx.dnssecKeys.activate(key.id);
      else if (to === "retired") await ctx.dnssecKeys.retire(key.id, removeAt!);
      else await ctx.dnssecKeys.remove(key.id);
      const more = to === "retired"
        ? `; it leaves the DNSKEY RRset at "${isoTime(removeAt!)}"`
        : to === "active"
        ? "; it signs the zone's data from now"
        : "";
      await ctx.audit.add({
        actor: SYSTEM_ACTOR,
        event_type: `dns.dnssec.key_${WORDS[to]}`,
        message: `${key.key_type} ${key.key_tag} of zone "${zone}" ${WORDS[to]}${more}`,
        resource_type: "dns_zone",
        resource_id: zone,
      });
    }
    const actions = steps.map((s) => `dnssec_key_${WORDS[s.to]}`);
    await announce(ctx, zone, actions, await bumpSerial(ctx, zone));
    return steps;
  });
}

/** Applies every due step of every zone; returns how many were taken. */
export async function advanceRollovers(ctx: DnsContext): Promise<number> {
  let taken = 0;
  for (const zone of await ctx.dnssecKeys.dueZones(ctx.clock.now())) {
    taken += (await advanceZone(ctx, zone)).length;
  }
  return taken;
}

/** After commit: the answer index reloads the zone once, then one `ZoneChanged` per action. */
async function announce(
  ctx: DnsContext,
  zone: string,
  actions: string[],
  serial: number,
): Promise<void> {
  await ctx.zones.announce(zone);
  ctx.transactor.afterCommit(() => {
    const emit = () => {
      for (const action of actions) ctx.events.emit("ZoneChanged", { zone, action, serial });
    };
    if (ctx.index) ctx.index.invalidate(zone).then(emit, emit);
    else emit();
  });
}
