import { historyRevertRoute } from "@/server/listeners/admin/tunnel_history_api.ts";

export const { meta, handler } = historyRevertRoute(
  "peer",
  " (a deletion, a revoke, a removed preshared key: keys are never kept)",
);
