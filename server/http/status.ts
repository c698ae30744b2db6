/**
 * The success statuses a route may declare (`meta[method].status`), by name:
 * routes never write a status number. Error statuses come from the error's
 * class alone (errors.ts).
 */
export const Status = {
  /** A WebSocket upgrade (documented only: the upgrade answers it). */
  SwitchingProtocols: 101,
  OK: 200,
  Created: 201,
  NoContent: 204,
} as const;
