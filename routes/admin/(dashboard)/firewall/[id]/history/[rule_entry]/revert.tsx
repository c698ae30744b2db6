import { revertRoute, RULE_PLACE } from "@/components/tunnel_history/history_routes.tsx";

const route = revertRoute("firewall_rule", RULE_PLACE);

export const { meta, handler } = route;
export default route.Confirm;
