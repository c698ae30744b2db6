import { NotImplementedError } from "@/lib/errors.ts";
import { define } from "@/server/listeners/dns_api/context.ts";

const notImplemented = (ctx: { req: Request; url: URL }): never => {
  throw new NotImplementedError(
    `PowerDNS API endpoint ${ctx.req.method} ${ctx.url.pathname} is not implemented by Palisade (docs/dns.md, "PowerDNS-compatible API")`,
  );
};
const method = {
  summary: "PowerDNS API: not implemented (501)",
  access: "public",
  hidden: true,
} as const;

// Key checked by ./_middleware.ts first: an unknown endpoint tells a caller without the key nothing.
export const meta = define.meta({
  GET: method,
  POST: method,
  PUT: method,
  PATCH: method,
  DELETE: method,
});

export const handler = define.handlers(meta, {
  GET: notImplemented,
  POST: notImplemented,
  PUT: notImplemented,
  PATCH: notImplemented,
  DELETE: notImplemented,
});
