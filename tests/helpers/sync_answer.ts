/**
 * The responder's answer to a query it must answer at once: every query but a
 * dynamic update and an IXFR that reads the journal is answered from memory,
 * synchronously (docs/dns.md). A promise here fails the test.
 */
export function now<T>(answer: T | Promise<T>): T {
  if (answer instanceof Promise) throw new Error("The answer waited on the store");
  return answer;
}
