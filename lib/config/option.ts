/** One configuration option, and the shape most of them share: an integer within bounds. */
import type { Config } from "./types.ts";
import { parseInteger } from "./values.ts";

/** One option: its variable, flag, default and how its value lands in the configuration. */
export interface Option {
  env: string;
  flag: string;
  default: string | null;
  description: string;
  apply(cfg: Config, value: string, name: string): void;
}

/** The flag of a variable: `PALISADE_DNS_TCP_MAX` → `--dns-tcp-max`. */
export function flagOf(env: string): string {
  return `--${env.replace(/^PALISADE_/, "").toLowerCase().replaceAll("_", "-")}`;
}

/** An integer option within `range`, set on the configuration by `set`. */
export function integerOption(
  env: string,
  defaultValue: number,
  range: [number, number],
  description: string,
  set: (c: Config, n: number) => void,
): Option {
  return {
    env,
    flag: flagOf(env),
    default: String(defaultValue),
    description,
    apply: (c, v, n) => set(c, parseInteger(v, n, range[0], range[1])),
  };
}
