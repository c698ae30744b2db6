/**
 * The History page and the revert confirmation of a peer, a firewall rule or
 * a route (docs/tunnels.md, "History and revert"): one route file each, built
 * here from the kind and where its object lives in the dashboard.
 */
import { z } from "zod";
import { confirmRoute } from "@/components/confirm_page.tsx";
import { doneQuery, noticeFor, NOTICES } from "@/components/notices.ts";
import { Page } from "@/components/page.tsx";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import { HISTORY_PAGE, type HistoryPage } from "@/lib/tunnel/history/history.ts";
import type { HistoryKind } from "@/lib/tunnel/history/history_repo.ts";
import { KIND_NOUN, labelOf } from "@/lib/tunnel/history/history_write.ts";
import { page, type PageProps } from "@/server/http/define.ts";
import { define } from "@/server/listeners/admin/context.ts";
import { ChangeList, FieldDiff } from "./change_list.tsx";

/** Where the object's pages are: its own page (or its list) and the prefix of its history. */
export interface HistoryPlace {
  /** `/peers/<id>`: the history is at `<base>/history`. */
  base(id: string): string;
  /**
   * The path parameter naming a change on the revert page: one per kind, so
   * that the dashboard's accessibility walk can seed each with a change of
   * its own object.
   */
  param: string;
  /** Where "back" leads: the object's page, or the list it is in. */
  back(id: string, exists: boolean): { href: string; label: string };
}

interface Data {
  history: HistoryPage;
  canEdit: boolean;
  notice: string | null;
}

/** The `meta`, `handler` and page of `<base>/history`. */
export function historyRoute(kind: HistoryKind, place: HistoryPlace) {
  const noun = KIND_NOUN[kind];
  const meta = define.meta({
    GET: {
      summary: `A ${noun}'s history: each change with who, when and the fields it changed`,
      access: "viewer",
      query: z.object({
        done: doneQuery(NOTICES.history),
        before: z.coerce.number().int().min(1).optional(),
      }),
    },
  });
  const handler = define.handlers(meta, {
    async GET(ctx) {
      const history = await ctx.services.tunnels.history.list(kind, ctx.params.id, {
        before: ctx.query.before,
      });
      ctx.state.title = `History of ${noun} ${history.label}`;
      return page<Data>({
        history,
        canEdit: roleAtLeast(ctx.auth.user.role, "operator"),
        notice: noticeFor(NOTICES.history, ctx.query.done),
      });
    },
  });
  function History({ data }: PageProps<Data>) {
    const { history: h } = data;
    const base = place.base(h.object_id);
    const last = h.changes.at(-1);
    return (
      <Page
        title={`History of ${noun} ${h.label}`}
        back={place.back(h.object_id, h.exists)}
        notice={data.notice}
      >
        {!h.exists && <p class="help">This {noun} is deleted; its history is kept.</p>}
        <ChangeList changes={h.changes} base={base} canEdit={data.canEdit} />
        {last && h.changes.length >= HISTORY_PAGE && (
          <a class="button-link" href={`${base}/history?before=${last.id}`}>Older changes</a>
        )}
      </Page>
    );
  }
  return { meta, handler, History };
}

/** The `meta`, `handler` and page of `<base>/history/<entry>/revert`. */
export function revertRoute(kind: HistoryKind, place: HistoryPlace) {
  const noun = KIND_NOUN[kind];
  return confirmRoute({
    title: "Revert change",
    summary: {
      GET: `Confirm reverting a change of a ${noun}`,
      POST: `Revert a change of a ${noun}`,
    },
    load: (ctx) =>
      ctx.services.tunnels.history.get(kind, ctx.params.id, Number(ctx.params[place.param])),
    act: async (ctx, c) => {
      await ctx.services.tunnels.history.revert(kind, c.objectId, c.id, ctx.auth.user.username);
      return `${place.base(c.objectId)}/history?done=reverted`;
    },
    text: (c) => ({
      question: (
        <>
          Revert change {c.id} of {noun} <strong>{labelOf(c.after, c.before)}</strong>{" "}
          ({c.summary}, by {c.actor})?
        </>
      ),
      consequence:
        `The ${noun} goes back to what it was before this change, through the usual checks and on the host, as a new change.`,
      details: <FieldDiff change={c} />,
      confirmLabel: "Revert change",
      cancelHref: `${place.base(c.objectId)}/history`,
    }),
  });
}

export const PEER_PLACE: HistoryPlace = {
  base: (id) => `/peers/${encodeURIComponent(id)}`,
  param: "peer_entry",
  back: (id, exists) =>
    exists ? { href: `/peers/${encodeURIComponent(id)}`, label: "Peer" } : {
      href: "/peers",
      label: "Peers",
    },
};

export const RULE_PLACE: HistoryPlace = {
  base: (id) => `/firewall/${encodeURIComponent(id)}`,
  param: "rule_entry",
  back: () => ({ href: "/firewall", label: "Firewall" }),
};

export const ROUTE_PLACE: HistoryPlace = {
  base: (id) => `/routes/${encodeURIComponent(id)}`,
  param: "route_entry",
  back: () => ({ href: "/routes", label: "Routes" }),
};
