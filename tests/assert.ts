/**
 * The assertions the tests use, in the names of Deno's standard library
 * (`@std/assert` is on JSR, which cannot be reached here), built on
 * `node:assert/strict`.
 */
import nodeAssert from "node:assert/strict";

export function assert(cond: unknown, msg?: string): asserts cond {
  nodeAssert.ok(cond, msg);
}

export function assertEquals<T>(actual: unknown, expected: T, msg?: string): asserts actual is T {
  nodeAssert.deepStrictEqual(actual, expected, msg);
}

export function assertNotEquals(actual: unknown, expected: unknown, msg?: string): void {
  nodeAssert.notDeepStrictEqual(actual, expected, msg);
}

export function assertMatch(actual: string, re: RegExp, msg?: string): void {
  nodeAssert.match(actual, re, msg);
}

export function assertStringIncludes(actual: string, part: string, msg?: string): void {
  nodeAssert.ok(
    actual.includes(part),
    msg ?? `Expected ${JSON.stringify(actual)} to include ${JSON.stringify(part)}`,
  );
}

export function assertThrows(
  fn: () => unknown,
  cls?: new (...a: never[]) => Error,
  msgIncludes?: string,
): Error {
  try {
    fn();
  } catch (err) {
    checkError(err, cls, msgIncludes);
    return err as Error;
  }
  throw new nodeAssert.AssertionError({ message: "Expected function to throw" });
}

export async function assertRejects(
  fn: () => Promise<unknown>,
  cls?: new (...a: never[]) => Error,
  msgIncludes?: string,
): Promise<Error> {
  try {
    await fn();
  } catch (err) {
    checkError(err, cls, msgIncludes);
    return err as Error;
  }
  throw new nodeAssert.AssertionError({ message: "Expected promise to reject" });
}

function checkError(err: unknown, cls?: new (...a: never[]) => Error, msgIncludes?: string) {
  if (cls && !(err instanceof cls)) {
    throw new nodeAssert.AssertionError({
      message: `Expected ${cls.name}, got ${(err as Error)?.name}: ${(err as Error)?.message}`,
    });
  }
  if (msgIncludes && !String((err as Error)?.message).includes(msgIncludes)) {
    throw new nodeAssert.AssertionError({
      message: `Expected message to include ${JSON.stringify(msgIncludes)}, got ${
        JSON.stringify((err as Error)?.message)
      }`,
    });
  }
}
