import { openApiRoute } from "@/server/http/openapi.ts";

export const { meta, handler } = openApiRoute({
  title: "Palisade DNS management API",
  description:
    'Zones, records and users (specs/dns.md); JWT from POST /api/v1/auth/login, or a scoped API key as X-API-Key (docs/dns.md, "API keys")',
  security: "jwt",
});
