import { revertRoute, ROUTE_PLACE } from "@/components/tunnel_history/history_routes.tsx";

const route = revertRoute("route", ROUTE_PLACE);

export const { meta, handler } = route;
export default route.Confirm;
