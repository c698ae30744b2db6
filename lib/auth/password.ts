/**
 * Password hashing with scrypt at OWASP's first recommended setting
 * (N=2^17, r=8, p=1, 128 MiB). `node:crypto` runs it on Deno's thread pool, so
 * a login does not block the event loop. Hashes are stored in a PHC-style
 * string carrying their parameters, so they can be raised later without
 * breaking existing hashes.
 */
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { BoundedSlots } from "./bounded_slots.ts";

const LOG_N = 17;
const R = 8;
const P = 1;
const KEY_LEN = 32;
const MAX_MEM = 256 * 1024 * 1024;

/** Lengths accepted for a new password. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 1024;

/**
 * Each derivation holds 128 MiB, and the login limiter counts per username and
 * per address only: without a process-wide cap, many addresses could hash in
 * parallel until memory runs out. A few run at once; a bounded queue waits.
 */
const slots = new BoundedSlots(4, 64);

function derive(
  password: string,
  salt: Uint8Array,
  logN: number,
  r: number,
  p: number,
): Promise<Uint8Array> {
  return slots.run(() => deriveNow(password, salt, logN, r, p));
}

function deriveNow(
  password: string,
  salt: Uint8Array,
  logN: number,
  r: number,
  p: number,
): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize("NFC"),
      salt,
      KEY_LEN,
      { N: 2 ** logN, r, p, maxmem: MAX_MEM },
      (err, key) => {
        if (err) reject(err);
        else resolve(new Uint8Array(key));
      },
    );
  });
}

const b64 = (b: Uint8Array) => btoa(String.fromCharCode(...b)).replace(/=+$/, "");
const unb64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** Hashes `password` into `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = new Uint8Array(randomBytes(16));
  const key = await derive(password, salt, LOG_N, R, P);
  return `$scrypt$ln=${LOG_N},r=${R},p=${P}$${b64(salt)}$${b64(key)}`;
}

/** True when `password` matches `stored`; the comparison is constant-time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(stored);
  if (!m) return false;
  const [logN, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) return false;
  const expected = unb64(m[5]);
  const actual = await derive(password, unb64(m[4]), logN, r, p);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | null = null;

/**
 * Spends the same time as a real verification, for unknown usernames, so the
 * response time does not reveal which usernames exist.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword("palisade-dummy-password");
  await verifyPassword(password, await dummy);
  return false;
}
