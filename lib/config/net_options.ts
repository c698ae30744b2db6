/**
 * Where the linux host driver puts Palisade's routes and firewall rules
 * (docs/tunnels.md, "Routes and firewall on the host"). Part of `OPTIONS`,
 * in `--help` order.
 */
import { ConfigError } from "../errors.ts";
import { integerOption, type Option } from "./option.ts";

export const NET_OPTIONS: Option[] = [
  integerOption(
    "PALISADE_ROUTE_TABLE",
    254,
    [1, 4_294_967_295],
    "Routing table of Palisade's routes (254 is main; 255, local, is refused)",
    (c, n) => {
      if (n === 255) {
        throw new ConfigError("PALISADE_ROUTE_TABLE", "table 255 (local) is the kernel's");
      }
      c.host.routeTable = n;
    },
  ),
  integerOption(
    "PALISADE_ROUTE_PROTOCOL",
    97,
    [5, 255],
    "Route protocol tag marking Palisade's routes; only routes with it are read or deleted (0-4 belong to the kernel and the system)",
    (c, n) => (c.host.routeProtocol = n),
  ),
  {
    env: "PALISADE_NFT_TABLE",
    flag: "--nft-table",
    default: "palisade",
    description: "Name of Palisade's own nftables table (family inet); no other table is touched",
    apply: (c, v, n) => {
      if (!/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(v)) {
        throw new ConfigError(
          n,
          `"${v}" is not a table name (a letter, then letters, digits or _; 1-64)`,
        );
      }
      c.host.nftTable = v;
    },
  },
];
