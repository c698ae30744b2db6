/**
 * What the detail pages of an interface and a peer share: a POST that is
 * either their settings form or one of their one-click actions (enable,
 * disable, restart), each answered the same way.
 */
import { z } from "zod";
import { page, type PageResult } from "@/server/http/define.ts";
import type { SignedInContext } from "@/server/listeners/admin/context.ts";
import { pageRefusal } from "./refusal.ts";

/** The POST body: the settings form, posted with `_action=update`, or one of `actions`. */
export function settingsOrAction<
  S extends z.ZodRawShape,
  const A extends readonly [string, ...string[]],
>(
  settings: z.ZodObject<S>,
  actions: A,
) {
  return z.discriminatedUnion("_action", [
    z.object({ _action: z.literal("update"), ...settings.shape }),
    z.object({ _action: z.enum(actions) }),
  ]);
}

/**
 * Runs a one-click action: a 303 to `done` (the page with its notice), or
 * the page again from `again`, with the refusal beside the buttons, in the
 * status of its error.
 */
export async function oneClick<D>(
  ctx: SignedInContext,
  run: () => Promise<unknown>,
  done: string,
  again: (actionError: string) => Promise<D>,
): Promise<Response | PageResult<D>> {
  try {
    await run();
    return ctx.redirect(done);
  } catch (err) {
    const { error, status } = pageRefusal(err);
    return page(await again(error), { status });
  }
}
