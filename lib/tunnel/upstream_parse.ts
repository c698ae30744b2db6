/**
 * The structure of a third-party WireGuard configuration in wg-quick format,
 * as VPN providers and `wg showconf` write it (docs/tunnels.md, "Upstream
 * import"): sections, keys and the line each came from. Section and key
 * names match case-insensitively, as `wg` reads them. A line that is not a
 * section header or `Key = value`, an unknown section or key, a key given
 * twice or a second [Interface] is a syntax error: ValidationError (400) on
 * `config`, naming the line and key. Values are checked in upstream_values.ts.
 * No error message quotes a value: a value may be a secret.
 */
import { ValidationError } from "../errors.ts";

export type Section = "Interface" | "Peer";

/** One `Key = value` line. */
export interface ConfigEntry {
  line: number;
  key: string;
  value: string;
}

/** One section: its header's line and its entries by canonical key. */
export interface ConfigSection {
  line: number;
  entries: Map<string, ConfigEntry[]>;
}

export interface ConfigText {
  iface: ConfigSection | null;
  peers: ConfigSection[];
}

/** Keys a list (comma separated, and repeatable on several lines, as wg-quick allows). */
const LISTS = new Set(["Address", "DNS", "AllowedIPs", "PreUp", "PostUp", "PreDown", "PostDown"]);

/** Every key each section may hold, in canonical spelling. */
export const KEYS: Record<Section, readonly string[]> = {
  Interface: [
    "PrivateKey",
    "Address",
    "DNS",
    "MTU",
    "ListenPort",
    "Table",
    "FwMark",
    "PreUp",
    "PostUp",
    "PreDown",
    "PostDown",
    "SaveConfig",
  ],
  Peer: ["PublicKey", "PresharedKey", "Endpoint", "AllowedIPs", "PersistentKeepalive"],
};

/** The largest configuration text accepted, in characters. */
export const CONFIG_MAX = 65_536;

function syntax(line: number, message: string): ValidationError {
  return new ValidationError(`Line ${line}: ${message}`, "config");
}

function canonical(section: Section, key: string): string | undefined {
  const k = key.toLowerCase();
  return KEYS[section].find((c) => c.toLowerCase() === k);
}

function sectionOf(header: string): Section | undefined {
  const s = header.toLowerCase();
  return s === "interface" ? "Interface" : s === "peer" ? "Peer" : undefined;
}

/** Comma-separated items, trimmed, empty ones dropped (also reads stored AllowedIPs). */
export function splitList(value: string): string[] {
  return value.split(",").map((v) => v.trim()).filter(Boolean);
}

/** Splits the text into sections; ValidationError (400, `config`) on a syntax error. */
export function parseConfigText(text: string): ConfigText {
  const out: ConfigText = { iface: null, peers: [] };
  let current: { name: Section; section: ConfigSection } | null = null;
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const n = i + 1;
    // `#` starts a comment anywhere on a line, as in wg and wg-quick.
    const line = raw.replace(/#.*$/, "").trim();
    if (!line) continue;
    const header = /^\[\s*([^\]]*?)\s*\]$/.exec(line);
    if (header) {
      const name = sectionOf(header[1]);
      if (!name) {
        throw syntax(n, `unknown section "[${header[1]}]"; expected [Interface] or [Peer]`);
      }
      const section: ConfigSection = { line: n, entries: new Map() };
      if (name === "Interface") {
        if (out.iface) {
          throw syntax(n, `a second [Interface] section (the first is on line ${out.iface.line})`);
        }
        out.iface = section;
      } else {
        out.peers.push(section);
      }
      current = { name, section };
      continue;
    }
    const eq = line.indexOf("=");
    if (eq <= 0) throw syntax(n, `expected "Key = value" or a section header`);
    const rawKey = line.slice(0, eq).trim();
    if (!current) throw syntax(n, `key "${rawKey}" comes before any [Interface] or [Peer] section`);
    const key = canonical(current.name, rawKey);
    if (!key) throw syntax(n, `unknown key "${rawKey}" in [${current.name}]`);
    const value = line.slice(eq + 1).trim();
    if (!value) throw syntax(n, `${key} has no value`);
    const seen = current.section.entries.get(key);
    if (seen && !LISTS.has(key)) {
      throw syntax(n, `${key} is given twice in [${current.name}] (first on line ${seen[0].line})`);
    }
    const entry = { line: n, key, value };
    if (seen) seen.push(entry);
    else current.section.entries.set(key, [entry]);
  }
  return out;
}
