import { openApiRoute } from "@/server/http/openapi.ts";

export const { meta, handler } = openApiRoute({
  title: "Palisade browser attestation API",
  description: "Sessions and signed heartbeats (specs/attestation.md)",
  security: "none",
});
