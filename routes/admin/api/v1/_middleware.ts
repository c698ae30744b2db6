import { define } from "@/server/listeners/admin/context.ts";

/** Names the accepted credentials in the 401 message of the tunnel API. */
export const handler = define.middleware((ctx) => {
  if (!ctx.auth) {
    ctx.state.authError = ctx.req.headers.has("authorization")
      ? "Invalid or expired API token"
      : "Authentication required: send the svc_session cookie or an API bearer token";
  }
  return ctx.next();
});
