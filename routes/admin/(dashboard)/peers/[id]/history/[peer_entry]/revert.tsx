import { PEER_PLACE, revertRoute } from "@/components/tunnel_history/history_routes.tsx";

const route = revertRoute("peer", PEER_PLACE);

export const { meta, handler } = route;
export default route.Confirm;
