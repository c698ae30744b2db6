import { openApiRoute } from "@/server/http/openapi.ts";

export const { meta, handler } = openApiRoute({
  title: "Palisade tunnel management API",
  description: "Interfaces, peers, settings, audit and the event stream (specs/tunnels.md)",
  security: "session-or-token",
});
