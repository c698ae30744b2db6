/**
 * Parsers of single option values. Each names the variable or flag it read
 * in its ConfigError, so the message points at what to fix.
 */
import { ConfigError } from "../errors.ts";
import type { ListenAddress } from "./types.ts";

/** Parses `host:port`, `[v6]:port` or `:port`; port 0 lets the OS choose. */
export function parseListen(value: string, name: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\[\]]*)):(\d{1,5})$/.exec(value.trim());
  if (!m) throw new ConfigError(name, `expected "host:port", got "${value}"`);
  const hostname = m[1] ?? (m[2] || "0.0.0.0");
  const port = Number(m[3]);
  if (port > 65535) throw new ConfigError(name, `port ${port} is out of range 0-65535`);
  return { hostname, port };
}

/** An integer within `min`-`max`. */
export function parseInteger(value: string, name: string, min: number, max: number): number {
  const v = value.trim();
  const n = Number(v);
  if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(n)) {
    throw new ConfigError(name, `expected an integer, got "${value}"`);
  }
  if (n < min || n > max) throw new ConfigError(name, `${n} is out of range ${min}-${max}`);
  return n;
}

/** A comma-separated list; blanks around items and empty items are dropped. */
export function parseList(value: string): string[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean);
}

/** 1/true/yes/on or 0/false/no/off, in any letter case. */
export function parseBool(value: string, name: string): boolean {
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["0", "false", "no", "off"].includes(v)) return false;
  throw new ConfigError(name, `expected true or false, got "${value}"`);
}

/** One serving thread per core, at most 8; on a single core the main thread serves alone. */
export function autoWorkers(): number {
  const cores = navigator.hardwareConcurrency ?? 1;
  return cores < 2 ? 0 : Math.min(8, cores);
}
