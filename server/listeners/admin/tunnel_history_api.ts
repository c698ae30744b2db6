/**
 * The two REST routes every tunnel object's history has (docs/tunnels.md,
 * "History and revert"): the listing and the revert of one change. Peers,
 * firewall rules and routes differ only in their kind and noun.
 */
import { ConflictError, HostError, UnprocessableError, ValidationError } from "@/lib/errors.ts";
import type { HistoryKind } from "@/lib/tunnel/history/history_repo.ts";
import {
  changeJson,
  TunnelHistoryQuery,
  TunnelHistorySchema,
  TunnelRevertSchema,
} from "@/lib/tunnel/history/schema.ts";
import { define } from "./context.ts";

const NOUN: Record<HistoryKind, string> = {
  peer: "peer",
  firewall_rule: "firewall rule",
  route: "route",
};

/** `GET …/{id}/history`: the object's changes, newest first. */
export function historyListRoute(kind: HistoryKind) {
  const noun = NOUN[kind];
  const meta = define.meta({
    GET: {
      summary:
        `The ${noun}'s history: its changes newest first, each with who, when, its state before and after (no secrets) and the fields that differ; kept after the ${noun} is deleted`,
      access: "viewer",
      query: TunnelHistoryQuery,
      response: TunnelHistorySchema,
    },
  });
  const handler = define.handlers(meta, {
    async GET(ctx) {
      const h = await ctx.services.tunnels.history.list(kind, ctx.params.id, ctx.query);
      return { ...h, changes: h.changes.map(changeJson) };
    },
  });
  return { meta, handler };
}

/** `POST …/{id}/history/{entry}/revert`; `irreversible` says what cannot be put back. */
export function historyRevertRoute(kind: HistoryKind, irreversible = "") {
  const noun = NOUN[kind];
  const meta = define.meta({
    POST: {
      summary:
        `Revert one change of the ${noun}: it is put back as it was before, through the usual checks, as a new audited change; 409 (code history_conflict) when the ${noun} changed after it, 409 (code history_irreversible) when it cannot be put back${irreversible}`,
      access: "operator",
      errors: [ConflictError, UnprocessableError, ValidationError, HostError],
      response: TunnelRevertSchema,
    },
  });
  const handler = define.handlers(meta, {
    POST: (ctx) =>
      ctx.services.tunnels.history.revert(
        kind,
        ctx.params.id,
        Number(ctx.params.entry),
        ctx.auth.user.username,
      ),
  });
  return { meta, handler };
}
