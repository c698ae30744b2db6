/** The interface drop-downs of the routes and firewall forms. */
import type { SignedInContext } from "@/server/listeners/admin/context.ts";

/** An interface a form can pick, as the form offers it. */
export interface InterfaceChoice {
  id: string;
  name: string;
  address_v4: string;
}

/** Every interface, by name, as a form offers them. */
export async function interfaceChoices(ctx: SignedInContext): Promise<InterfaceChoice[]> {
  return (await ctx.services.tunnels.interfaces.list()).map(({ id, name, address_v4 }) => ({
    id,
    name,
    address_v4,
  }));
}

/** The options of a select: "" first (`none` says what it means), then every interface. */
export function interfaceOptions(interfaces: InterfaceChoice[], none: string): [string, string][] {
  return [
    ["", none],
    ...interfaces.map((i): [string, string] => [i.id, `${i.name} (${i.address_v4})`]),
  ];
}
