import type { ReadonlySignal, Signal } from "@preact/signals";
import type { LiveTrigger } from "../_runtime/schedule.ts";

/**
 * One peer as the table needs it. Rows cross to the browser as JSON inside an
 * HTML attribute, a thousand at a time, so they are kept small: the interface
 * is an index into `PeerTableProps.ifaces`, and telemetry nobody has reported
 * (`hs` handshake time, `rx`/`tx` bytes) is left out rather than sent as null.
 */
export interface PeerRow {
  id: string;
  name: string;
  iface: number;
  address: string;
  status: string;
  hs?: string;
  rx?: number;
  tx?: number;
  /** Limits (docs/peer_lifecycle.md) as [used bytes, quota bytes, days left]; absent: none. */
  lim?: [number, number | null, number | null];
}

export interface PeerTableProps {
  rows: PeerRow[];
  /** The interfaces rows refer to, as [id, name]. */
  ifaces: [string, string][];
  /** Server time of the render, so relative times hydrate to the same text. */
  now: number;
  caption: string;
  showInterface: boolean;
  /** Id of a server-rendered search field; typing in it filters the rows at once. */
  searchInput?: string;
  /** Show a footer with the summed transfer. */
  totals?: boolean;
  /** Shown instead of the table when there are no rows. */
  empty: string;
  /**
   * Events after which the rows are read again from a fresh render of the
   * page (its own filters and search apply); none: handshakes only.
   */
  refreshOn?: LiveTrigger[];
}

/** A row's telemetry as last reported (null: never). */
export interface Live {
  hs: string | null;
  rx: number | null;
  tx: number | null;
}

/** A row's quota usage and days left as last reported (null: no limits). */
export interface Usage {
  used: number;
  quota: number | null;
  days: number | null;
}

/** A row with its own signals: its telemetry, its usage and whether the search shows it. */
export interface Entry {
  row: PeerRow;
  /** The interface's [id, name], or null when unknown. */
  iface: [string, string] | null;
  /** What the row shows apart from telemetry; an entry is kept while this stays the same. */
  key: string;
  live: Signal<Live>;
  usage: Signal<Usage | null>;
  shown: ReadonlySignal<boolean>;
}
