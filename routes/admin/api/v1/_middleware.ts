import type { Context } from "@/server/http/define.ts";

/** Names the accepted credentials in the 401 message of the tunnel API. */
export function handler(ctx: Context): Promise<Response> {
  if (!ctx.state.auth) {
    ctx.state.authError = ctx.req.headers.has("authorization")
      ? "Invalid or expired API token"
      : "Authentication required: send the svc_session cookie or an API bearer token";
  }
  return ctx.next();
}
