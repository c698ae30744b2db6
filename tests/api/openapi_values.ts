/**
 * Values from a JSON Schema (the subset the OpenAPI documents use), for the
 * OpenAPI fuzz test: `positive` makes a value the schema allows, `negatives`
 * values it forbids, each breaking one rule. Where a schema gives `examples`
 * they are the positive values: they stand for rules JSON Schema cannot state
 * (a record's data per type, an address inside the interface's block).
 */
// deno-lint-ignore no-explicit-any
export type Schema = Record<string, any>;
/** A seeded draw in [0, n). */
export type Rng = (n: number) => number;

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[r(xs.length)];
const ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

function between(r: Rng, lo: number, hi: number, integer: boolean): number {
  const edge = r(4);
  if (edge === 0) return lo;
  if (edge === 1) return hi;
  const v = lo + (r(1_000_000) / 1_000_000) * (hi - lo);
  return integer ? Math.min(hi, Math.max(lo, Math.round(v))) : v;
}

function text(r: Rng, min: number, max: number): string {
  const n = min + r(Math.max(1, Math.min(max, min + 12) - min + 1));
  return Array.from({ length: n }, () => ALNUM[r(ALNUM.length)]).join("");
}

/** `base` with one of its `oneOf`/`anyOf` branches folded in (properties merged, required joined). */
export function withBranch(base: Schema, r: Rng): Schema {
  const branches: Schema[] | undefined = base.oneOf ?? base.anyOf;
  if (!branches) return base;
  const { oneOf: _o, anyOf: _a, ...rest } = base;
  const chosen = pick(r, branches);
  const props: Schema = { ...rest.properties };
  for (const [k, v] of Object.entries<Schema>(chosen.properties ?? {})) {
    // Both apply; the branch's own type stands for the base's alternatives.
    const { anyOf: _x, oneOf: _y, ...inherited } = props[k] ?? {};
    props[k] = v.type || v.const !== undefined ? { ...inherited, ...v } : { ...props[k], ...v };
  }
  // Under oneOf, what another branch requires must stay out, or two branches would match.
  const forbidden = base.oneOf
    ? branches.filter((b) => b !== chosen).flatMap((b) => b.required ?? [])
      .filter((k: string) => !(chosen.required ?? []).includes(k))
    : [];
  return {
    ...rest,
    ...chosen,
    ...(rest.properties || chosen.properties ? { properties: props } : {}),
    required: [...new Set([...(rest.required ?? []), ...(chosen.required ?? [])])],
    "x-forbidden": forbidden,
  };
}

/** A value `s` allows. */
export function positive(s: Schema, r: Rng): unknown {
  if (s.examples?.length) return pick(r, s.examples);
  if ("const" in s) return s.const;
  if (s.enum) return pick(r, s.enum);
  if (s.oneOf || s.anyOf) return positive(withBranch(s, r), r);
  const type = Array.isArray(s.type) ? pick(r, s.type) : s.type;
  switch (type) {
    case "string":
      return stringPositive(s, r);
    case "integer":
    case "number":
      return between(r, s.minimum ?? 0, s.maximum ?? 1000, type === "integer");
    case "boolean":
      return r(2) === 0;
    case "null":
      return null;
    case "array": {
      const min = s.minItems ?? 0;
      const n = min + r(Math.max(1, Math.min(s.maxItems ?? min + 2, min + 2) - min + 1));
      return Array.from({ length: n }, () => positive(s.items ?? {}, r));
    }
    case "object":
      return objectPositive(s, r);
    default:
      return pick(r, ["x", 1, true]);
  }
}

function stringPositive(s: Schema, r: Rng): string {
  if (s.format === "email") return `hostmaster${r(1000)}@example.com`;
  if (s.format === "ipv4") return [r(223) + 1, r(256), r(256), r(254) + 1].join(".");
  if (s.format === "date-time") return new Date(r(2_000_000_000) * 1000).toISOString();
  if (s.pattern) return fromPattern(s.pattern, r);
  return text(r, s.minLength ?? 0, s.maxLength ?? 32);
}

function objectPositive(s: Schema, r: Rng): Record<string, unknown> {
  const forbidden: string[] = s["x-forbidden"] ?? [];
  const required: string[] = s.required ?? [];
  const out: Record<string, unknown> = {};
  const optional = Object.keys(s.properties ?? {}).filter((k) =>
    !required.includes(k) && !forbidden.includes(k)
  );
  for (const k of required) out[k] = positive(s.properties?.[k] ?? {}, r);
  for (const k of optional) if (r(2) === 0) out[k] = positive(s.properties[k], r);
  for (const k of optional) {
    if (Object.keys(out).length >= (s.minProperties ?? 0)) break;
    out[k] ??= positive(s.properties[k], r);
  }
  return out;
}

/** A string `pattern` matches: literals, classes, groups with `|`, and the usual quantifiers. */
export function fromPattern(pattern: string, r: Rng): string {
  let i = 0;
  const atom = (): () => string => {
    const c = pattern[i++];
    if (c === "(") {
      const alts: (() => string)[][] = [[]];
      while (pattern[i] !== ")") {
        if (pattern[i] === "|") {
          i++;
          alts.push([]);
        } else alts[alts.length - 1].push(quantified());
      }
      i++;
      return () => pick(r, alts).map((g) => g()).join("");
    }
    if (c === "[") {
      const chars: string[] = [];
      while (pattern[i] !== "]") {
        let ch = pattern[i++];
        if (ch === "\\") ch = pattern[i++];
        if (pattern[i] === "-" && pattern[i + 1] !== "]") {
          const end = pattern[i + 1] === "\\" ? pattern[i + 2] : pattern[i + 1];
          i += pattern[i + 1] === "\\" ? 3 : 2;
          for (let k = ch.charCodeAt(0); k <= end.charCodeAt(0); k++) {
            chars.push(String.fromCharCode(k));
          }
        } else chars.push(ch);
      }
      i++;
      return () => pick(r, chars);
    }
    if (c === "\\") {
      const e = pattern[i++];
      if (e === "d") return () => String(r(10));
      if (e === "S") return () => pick(r, [...ALNUM]);
      return () => e;
    }
    if (c === "^" || c === "$") return () => "";
    if (c === ".") return () => pick(r, [...ALNUM]);
    return () => c;
  };
  const quantified = (): () => string => {
    const a = atom();
    let [lo, hi] = [1, 1];
    const q = pattern[i];
    if (q === "?") [lo, hi] = [0, 1];
    else if (q === "*") [lo, hi] = [0, 3];
    else if (q === "+") [lo, hi] = [1, 3];
    else if (q === "{") {
      const end = pattern.indexOf("}", i);
      const [m, n] = pattern.slice(i + 1, end).split(",");
      lo = Number(m);
      hi = n === undefined ? lo : n === "" ? lo + 3 : Number(n);
      i = end;
    } else return a;
    i++;
    const span = Math.min(hi, lo + 6) - lo + 1;
    return () => Array.from({ length: lo + r(span) }, a).join("");
  };
  const parts: (() => string)[] = [];
  while (i < pattern.length) parts.push(quantified());
  return parts.map((p) => p()).join("");
}

const NOT_LISTED = "zz-not-listed";

/**
 * Values `s` forbids, each breaking one of its rules. `asText`: the value
 * travels as a string (a query parameter), so a wrong JSON type cannot be sent.
 */
export function negatives(s: Schema, asText = false): unknown[] {
  const out: unknown[] = [];
  if ("const" in s) out.push(typeof s.const === "string" ? NOT_LISTED : "zz");
  if (s.enum) out.push(NOT_LISTED);
  const branches: Schema[] | undefined = s.anyOf ?? s.oneOf;
  // A nullable value: the rules of its one other branch.
  if (branches?.length === 2 && branches.some((b) => b.type === "null")) {
    return [...out, ...negatives(branches.find((b) => b.type !== "null")!, asText)];
  }
  const types = [s.type].flat();
  if (branches || !s.type) return asText ? out : [...out, { zz: [1] }];
  if (types.includes("string")) out.push(...stringNegatives(s));
  if (types.includes("integer") || types.includes("number")) {
    if (s.minimum !== undefined) out.push(s.minimum - 1);
    if (s.maximum !== undefined) out.push(s.maximum + 1);
    if (types.includes("integer")) out.push(1.5);
    if (asText) out.push("abc");
  }
  if (types.includes("array")) {
    if (s.minItems) out.push([]);
    if (s.maxItems !== undefined && s.maxItems < 1000) {
      out.push(Array.from({ length: s.maxItems + 1 }, () => positive(s.items ?? {}, () => 0)));
    }
  }
  if (asText) return out.filter((v) => typeof v !== "object").map(String);
  if (!types.includes("object")) out.push({ zz: [1] });
  else out.push([]);
  return out;
}

function stringNegatives(s: Schema): unknown[] {
  const out: unknown[] = [];
  const fits = (v: string) =>
    v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
  if (s.pattern) {
    const re = new RegExp(s.pattern, "u");
    const bad = ["!bad value!", "-", "a b", "", " "].find((v) => fits(v) && !re.test(v));
    if (bad !== undefined) out.push(bad);
  }
  if (s.format === "email") out.push("not-an-email", "a@b-.example.com", "a@-b.example.com");
  if (s.format === "ipv4") out.push("300.1.2.3", "10.0.0");
  if (s.format === "date-time") out.push("not-a-time");
  if (s.minLength) out.push("a".repeat(s.minLength - 1));
  if (s.maxLength !== undefined) out.push("a".repeat(s.maxLength + 1));
  return out;
}
