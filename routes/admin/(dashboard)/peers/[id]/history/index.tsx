import { historyRoute, PEER_PLACE } from "@/components/tunnel_history/history_routes.tsx";

const route = historyRoute("peer", PEER_PLACE);

export const { meta, handler } = route;
export default route.History;
