import { historyRevertRoute } from "@/server/listeners/admin/tunnel_history_api.ts";

export const { meta, handler } = historyRevertRoute("route");
