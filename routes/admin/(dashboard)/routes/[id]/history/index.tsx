import { historyRoute, ROUTE_PLACE } from "@/components/tunnel_history/history_routes.tsx";

const route = historyRoute("route", ROUTE_PLACE);

export const { meta, handler } = route;
export default route.History;
