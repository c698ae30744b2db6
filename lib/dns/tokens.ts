/**
 * The lexer of RFC 1035 master-file text (§5.1), shared by the zone-file
 * parser and by record values given through the API, so that a value means
 * the same whether it arrives in a file or in JSON: quoted strings, backslash
 * escapes, parentheses spanning lines, ";" comments.
 */
import { ValidationError } from "../errors.ts";

export interface Token {
  /** The text with quotes removed and escapes kept as written (`\"`, `\059`). */
  text: string;
  quoted: boolean;
}

/** One logical entry: the tokens of a line, joined across parentheses. */
export interface Entry {
  tokens: Token[];
  /** The entry started with white space: its owner is the previous owner. */
  blankOwner: boolean;
  /** 1-based line where the entry starts. */
  line: number;
}

/** Splits master-file `text` into logical entries; throws ValidationError with the line on bad syntax. */
export function lex(text: string, field = "zone"): Entry[] {
  const entries: Entry[] = [];
  let tokens: Token[] = [];
  let depth = 0;
  let line = 1;
  let start = 1;
  let blankOwner = false;
  let atLineStart = true;
  const fail = (why: string): never => {
    throw new ValidationError(`Line ${line}: ${why}`, field);
  };
  const flush = () => {
    if (tokens.length) entries.push({ tokens, blankOwner, line: start });
    tokens = [];
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (atLineStart && depth === 0) {
      flush();
      start = line;
      blankOwner = c === " " || c === "\t";
      atLineStart = false;
    }
    if (c === "\n") {
      line++;
      i++;
      if (depth === 0) atLineStart = true;
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === "(") {
      depth++;
      i++;
      continue;
    }
    if (c === ")") {
      if (depth === 0) fail(`unbalanced ")"`);
      depth--;
      i++;
      continue;
    }
    const token = c === '"' ? readQuoted(text, i, fail) : readWord(text, i);
    tokens.push(token.token);
    i = token.end;
  }
  if (depth !== 0) fail(`unbalanced "("`);
  flush();
  return entries;
}

/** A token and the offset just past it. */
interface Scanned {
  token: Token;
  end: number;
}

/** The quoted string opening at `start`; escapes are kept as written. */
function readQuoted(text: string, start: number, fail: (why: string) => never): Scanned {
  let j = start + 1;
  let out = "";
  while (j < text.length && text[j] !== '"') {
    if (text[j] === "\n") fail("unterminated quoted string");
    if (text[j] === "\\" && j + 1 < text.length) {
      out += text[j] + text[j + 1];
      j += 2;
    } else {
      out += text[j++];
    }
  }
  if (j >= text.length) fail("unterminated quoted string");
  return { token: { text: out, quoted: true }, end: j + 1 };
}

/** The unquoted word starting at `start`, up to white space, ";", a parenthesis or a quote. */
function readWord(text: string, start: number): Scanned {
  let j = start;
  let out = "";
  while (j < text.length && !' \t\r\n;()"'.includes(text[j])) {
    if (text[j] === "\\" && j + 1 < text.length) {
      out += text[j] + text[j + 1];
      j += 2;
    } else {
      out += text[j++];
    }
  }
  return { token: { text: out, quoted: false }, end: j };
}

/** The tokens of a single value such as `10 mail.example.com.` or `"a" "b"`. */
export function splitValue(value: string, field = "value"): Token[] {
  return lex(value.replace(/[\r\n]+/g, " "), field).flatMap((e) => e.tokens);
}

const encoder = new TextEncoder();

/** The bytes a token denotes: `\DDD` and `\X` escapes resolved, other text as UTF-8. */
export function unescapeBytes(text: string, field = "value"): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== "\\") {
      i += pushChar(out, text, i);
      continue;
    }
    const digits = text.slice(i + 1, i + 4);
    if (/^[0-9]{3}$/.test(digits)) {
      const n = Number(digits);
      if (n > 255) throw new ValidationError(`Escape "\\${digits}" is out of range`, field);
      out.push(n);
      i += 3;
    } else if (i + 1 < text.length) {
      // RFC 1035 §5.1: "\X" is the character X, so its bytes are X's UTF-8, as unescaped.
      i += 1 + pushChar(out, text, i + 1);
    } else {
      throw new ValidationError(`Value "${text}" ends with a lone backslash`, field);
    }
  }
  return new Uint8Array(out);
}

/** Appends the UTF-8 bytes of the character at `text[i]`; returns the extra code units it took. */
function pushChar(out: number[], text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x80) {
    out.push(code);
    return 0;
  }
  // A surrogate pair stays one character for the encoder.
  const cp = text.codePointAt(i)!;
  out.push(...encoder.encode(String.fromCodePoint(cp)));
  return cp > 0xffff ? 1 : 0;
}

/** Presentation form of a character-string: quoted, with `"`, `\` and non-printables escaped. */
export function quoteBytes(bytes: Uint8Array): string {
  let s = '"';
  for (const b of bytes) {
    if (b === 0x22 || b === 0x5c) s += "\\" + String.fromCharCode(b);
    else if (b >= 0x20 && b < 0x7f) s += String.fromCharCode(b);
    else s += "\\" + String(b).padStart(3, "0");
  }
  return s + '"';
}
