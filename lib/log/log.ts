/**
 * Structured logging: one JSON object per line on stderr. Callers pass
 * fields, never secrets; `redact()` strips the known secret-bearing keys as a
 * second line of defence.
 */

export type LogLevel = "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export const LOG_LEVELS = Object.keys(RANK) as LogLevel[];

const SECRET_KEY = /pass|secret|token|private|psk|authorization|cookie/i;

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `fields` to every line. */
  child(fields: LogFields): Logger;
}

/** Replaces the value of every secret-looking key with "[redacted]". */
export function redact(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = SECRET_KEY.test(k) ? "[redacted]" : v;
  }
  return out;
}

function errorFields(v: unknown): unknown {
  if (v instanceof Error) return { name: v.name, message: v.message, stack: v.stack };
  return v;
}

/** A logger writing lines at or above `level` to `sink` (stderr by default). */
export function createLogger(
  level: LogLevel = "info",
  sink: (line: string) => void = (line) => console.error(line),
  base: LogFields = {},
): Logger {
  const min = RANK[level];
  const write = (lvl: LogLevel, msg: string, fields: LogFields = {}) => {
    if (RANK[lvl] < min) return;
    const safe = redact({ ...base, ...fields });
    for (const k of Object.keys(safe)) safe[k] = errorFields(safe[k]);
    sink(JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...safe }));
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
    child: (fields) => createLogger(level, sink, { ...base, ...fields }),
  };
}

/** A logger that drops everything; for tests that do not read logs. */
export const silentLogger: Logger = createLogger("error", () => {});
