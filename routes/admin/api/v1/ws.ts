import { ValidationError } from "@/lib/errors.ts";
import { defineHandlers, defineMeta } from "@/server/define.ts";
import { bearerToken, getCookie, SESSION_COOKIE } from "@/server/cookies.ts";
import { openEventStream } from "@/server/event_socket.ts";

export const meta = defineMeta({
  GET: {
    summary: "Event stream (WebSocket upgrade); frames are {type, payload}",
    access: "viewer",
    produces: "application/json",
  },
});

export const handler = defineHandlers(meta, {
  GET(ctx) {
    if ((ctx.req.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
      throw new ValidationError("Expected a WebSocket upgrade request");
    }
    const { events, log, auth } = ctx.state.services;
    const credential = { cookie: getCookie(ctx.req, SESSION_COOKIE), bearer: bearerToken(ctx.req) };
    return openEventStream(
      ctx.req,
      events,
      ctx.state.services,
      log,
      () => auth.authenticate(credential) !== null,
    );
  },
});
