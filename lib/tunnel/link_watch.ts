/**
 * InterfaceChanged for link changes made underneath Palisade: the periodic
 * pass hands each host read here, and a stored interface whose device went
 * down (`link_down`), disappeared (`device_missing`) or came back up
 * (`link_up`) since the previous read is announced once. A change that
 * follows a change of the stored interface (enable, disable, rename: the API
 * already announced it) only moves the baseline, so nothing is announced
 * twice.
 */
import type { EventBus } from "../events/bus.ts";
import type { LiveState } from "../host/driver.ts";
import type { InterfaceRow } from "./interface_repo.ts";

export type LinkState = "up" | "down" | "missing";

const ACTION: Record<LinkState, string> = {
  up: "link_up",
  down: "link_down",
  missing: "device_missing",
};

interface Seen {
  name: string;
  enabled: number;
  link: LinkState;
}

export class LinkWatch {
  #seen = new Map<string, Seen>();

  constructor(private readonly events: EventBus) {}

  /** Compares `state` with the previous read; returns the number of events emitted. */
  observe(state: LiveState, rows: InterfaceRow[]): number {
    const next = new Map<string, Seen>();
    let emitted = 0;
    for (const row of rows) {
      const live = state.interfaces.get(row.name);
      const now: Seen = {
        name: row.name,
        enabled: row.enabled,
        link: !live ? "missing" : live.up ? "up" : "down",
      };
      next.set(row.id, now);
      const before = this.#seen.get(row.id);
      if (!before || before.link === now.link) continue;
      if (before.name !== now.name || before.enabled !== now.enabled) continue;
      this.events.emit("InterfaceChanged", {
        id: row.id,
        action: ACTION[now.link],
        name: row.name,
      });
      emitted++;
    }
    this.#seen = next;
    return emitted;
  }
}
