/**
 * A LISTEN/NOTIFY channel of the PostgreSQL store, for messages between
 * Palisade instances (docs/scaling.md, "Cross-instance infrastructure").
 * Sending goes through the pool; listening uses the client's own listening
 * connection, which reconnects and listens again by itself after it was
 * lost. Notifications sent while it was away are not delivered to it:
 * `onListen` runs after each (re)connection, so a listener can tell.
 */
import type { PgStore } from "./pg_store.ts";

/** PostgreSQL refuses a payload of 8000 bytes or more (the default `NOTIFY` limit). */
export const MAX_NOTIFY_BYTES = 7999;

/** At most this many payloads go in one transaction. */
const BATCH = 100;

export interface NotifyChannel {
  /**
   * Sends `payloads` in order. Several are sent in one transaction: PostgreSQL
   * delivers them together, in order, at its commit.
   */
  send(payloads: string[]): Promise<void>;
  /**
   * Calls `onMessage` with each payload sent on the channel (by any
   * session, this instance's included) and `onListen` once listening, then
   * after each reconnection. Returns the function that stops listening.
   */
  listen(
    onMessage: (payload: string) => void,
    onListen?: () => void,
  ): Promise<() => Promise<void>>;
}

export function pgChannel(store: PgStore, name: string): NotifyChannel {
  return {
    async send(payloads) {
      for (let at = 0; at < payloads.length; at += BATCH) {
        const batch = payloads.slice(at, at + BATCH);
        if (batch.length === 1) {
          await store.sql`SELECT pg_notify(${name}, ${batch[0]})`;
          continue;
        }
        // Pipelined in one transaction: one round trip, delivered in order at the commit.
        await store.sql.begin((tx) => batch.map((p) => tx`SELECT pg_notify(${name}, ${p})`));
      }
    },
    async listen(onMessage, onListen) {
      const sub = await store.sql.listen(name, onMessage, onListen);
      return () => sub.unlisten();
    },
  };
}
