import { Status } from "@/server/http/status.ts";
import { ForbiddenError, ValidationError } from "@/lib/errors.ts";
import { isSameOrigin } from "@/server/http/same_origin.ts";
import { bearerToken, getCookie, SESSION_COOKIE } from "@/server/http/cookies.ts";
import { openEventStream } from "@/server/http/event_socket.ts";
import { define } from "@/server/listeners/admin/context.ts";

export const meta = define.meta({
  GET: {
    summary: "Event stream (WebSocket upgrade); frames are {type, payload}",
    access: "viewer",
    status: Status.SwitchingProtocols,
  },
});

export const handler = define.handlers(meta, {
  GET(ctx) {
    if ((ctx.req.headers.get("upgrade") ?? "").toLowerCase() !== "websocket") {
      throw new ValidationError("Expected a WebSocket upgrade request");
    }
    // A WebSocket upgrade is a GET, so the middleware's cross-site check does not
    // cover it; without this, a page on another site could read the stream with the cookie.
    if (ctx.auth.via === "session" && !isSameOrigin(ctx.req)) {
      throw new ForbiddenError("Cross-site WebSocket refused");
    }
    const { events, log, auth } = ctx.services;
    const credential = { cookie: getCookie(ctx.req, SESSION_COOKIE), bearer: bearerToken(ctx.req) };
    const opened = ctx.auth.user;
    // The stream ends with its credential, and when the user's role changes.
    const stillValid = async () => {
      const now = await auth.authenticate(credential, false);
      return now !== null && now.user.id === opened.id && now.user.role === opened.role;
    };
    return openEventStream(ctx.req, events, ctx.services, log, stillValid);
  },
});
