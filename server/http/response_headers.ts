/**
 * Headers a handler or middleware adds to whatever response its route
 * produces (`ctx.headers`). A plain list rather than a `Headers` object: one
 * is made for every request that adds a header, and on the attestation
 * listener that is every heartbeat. The router validates names and values
 * when it builds the response.
 */
type Pair = [string, string];

export class ResponseHeaders {
  readonly #pairs: Pair[] = [];
  readonly #defaults: Pair[] = [];

  /** Replaces every header of this name. */
  set(name: string, value: string): void {
    this.delete(name);
    this.#pairs.push([name, value]);
  }

  /** Adds a header, keeping earlier ones of the same name (e.g. several Set-Cookie). */
  append(name: string, value: string): void {
    this.#pairs.push([name, value]);
  }

  delete(name: string): void {
    for (let i = this.#pairs.length - 1; i >= 0; i--) {
      if (sameName(this.#pairs[i][0], name)) this.#pairs.splice(i, 1);
    }
  }

  has(name: string): boolean {
    return this.#pairs.some(([k]) => sameName(k, name));
  }

  /** A header the response gets only when it has none of this name (e.g. a default Cache-Control). */
  setDefault(name: string, value: string): void {
    this.#defaults.push([name, value]);
  }

  /** Headers set or appended, in order. */
  get pairs(): readonly Pair[] {
    return this.#pairs;
  }

  /** Defaults, in order. */
  get defaults(): readonly Pair[] {
    return this.#defaults;
  }

  /**
   * The headers of a response created here with `base`: base entries this
   * list replaces are left out, then this list, then defaults nobody set.
   */
  over(base: readonly Pair[]): Pair[] {
    const out = base.filter(([k]) => !this.has(k));
    out.push(...this.#pairs);
    for (const d of this.#defaults) if (!out.some(([k]) => sameName(k, d[0]))) out.push(d);
    return out;
  }
}

function sameName(a: string, b: string): boolean {
  return a.length === b.length && a.toLowerCase() === b.toLowerCase();
}
