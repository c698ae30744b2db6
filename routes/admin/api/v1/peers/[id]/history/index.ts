import { historyListRoute } from "@/server/listeners/admin/tunnel_history_api.ts";

export const { meta, handler } = historyListRoute("peer");
