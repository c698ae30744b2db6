import { assertEquals } from "../../tests/assert.ts";
import { createLogger } from "../../lib/log/log.ts";
import type { Services } from "../../lib/services.ts";
import type { Context, RouteModule } from "./define.ts";
import { buildListenerApp } from "./router.ts";

/** An app of one listener from in-memory route modules; logged lines are collected. */
function appOf(files: Record<string, RouteModule>) {
  const lines: string[] = [];
  const log = createLogger("error", (l) => lines.push(l));
  return {
    ...buildListenerApp({ name: "t", files, services: { log } as unknown as Services }),
    lines,
  };
}

const get = (path: string) => new Request(`http://127.0.0.1${path}`);

Deno.test("middlewares run outside in, each next() once, and see the route's answer", async () => {
  const order: string[] = [];
  const mw = (name: string) => async (ctx: Context) => {
    order.push(`${name} in`);
    const res = await ctx.next();
    order.push(`${name} out ${res.status}`);
    return res;
  };
  const { fetch } = appOf({
    "_middleware.ts": { handler: mw("outer") },
    "a/_middleware.ts": { handler: [mw("inner"), mw("second")] },
    "a/b.ts": {
      meta: { GET: { access: "public" } },
      handler: {
        GET: (ctx: Context) => {
          order.push("route");
          // Outside a middleware, next() refuses.
          return ctx.next().then(() => ({ no: true }), (e: Error) => ({ next: e.message }));
        },
      },
    } as unknown as RouteModule,
  });
  const res = await fetch(get("/a/b"));
  assertEquals(await res.json(), { next: "next() is only for middleware" });
  assertEquals(order, [
    "outer in",
    "inner in",
    "second in",
    "route",
    "second out 200",
    "inner out 200",
    "outer out 200",
  ]);
});

Deno.test("a middleware calling next() twice gets an error, mapped to a 500 without detail", async () => {
  let second = "";
  const { fetch, lines } = appOf({
    "_middleware.ts": {
      handler: async (ctx: Context) => {
        await ctx.next();
        try {
          await ctx.next();
        } catch (e) {
          second = (e as Error).message;
          throw e;
        }
        return new Response("unreachable");
      },
    },
    "x.ts": {
      meta: { GET: { access: "public" } },
      handler: { GET: () => ({ ok: true }) },
    } as unknown as RouteModule,
  });
  const res = await fetch(get("/x"));
  assertEquals(second, "next() called more than once");
  assertEquals(res.status, 500);
  assertEquals((await res.json()).error, "Internal server error");
  assertEquals(lines.length, 1, "logged once for the operator");
});
