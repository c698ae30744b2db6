/**
 * A committed change applied to the host: through HostSync's queue, with the
 * shared telemetry read dropped afterwards so listings show the new state.
 */
import type { EventMap, EventType } from "../events/bus.ts";
import type { TunnelContext } from "./context.ts";

type HostDeps = Pick<TunnelContext, "host" | "telemetry">;

/** Applies `fn` to the host; HostError (the change stays saved) when it fails. */
export async function applyToHost(
  ctx: HostDeps,
  what: string,
  fn: () => Promise<unknown>,
): Promise<void> {
  try {
    await ctx.host.apply(what, fn);
  } finally {
    ctx.telemetry.invalidate();
  }
}

/**
 * `applyToHost`, then the event. The event waits for the host so that a
 * subscriber reading the peer back sees it live; it also goes out when the
 * host apply failed, because the stored change it announces did happen.
 */
export async function applyThenEmit<K extends EventType>(
  ctx: HostDeps & Pick<TunnelContext, "events">,
  what: string,
  fn: () => Promise<unknown>,
  type: K,
  payload: EventMap[K],
): Promise<void> {
  try {
    await applyToHost(ctx, what, fn);
  } finally {
    ctx.events.emit(type, payload);
  }
}

/**
 * `applyToHost`, then the event, only when the apply succeeded: routes and
 * firewall rules announce what the host now has (docs/tunnels.md). A failed
 * apply throws HostError (the change is saved) and announces nothing; the
 * audit record still tells of the stored change.
 */
export async function applyThenAnnounce<K extends EventType>(
  ctx: HostDeps & Pick<TunnelContext, "events">,
  what: string,
  fn: () => Promise<unknown>,
  type: K,
  payload: EventMap[K],
): Promise<void> {
  await applyToHost(ctx, what, fn);
  ctx.events.emit(type, payload);
}
