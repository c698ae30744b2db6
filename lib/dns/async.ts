/**
 * A repository's asynchronous interface from its synchronous SQLite statements: each DNS
 * repository documents its methods once, on the statements interface, and both engines
 * implement `Async<…>` of it (docs/scaling.md, "Ported domains").
 */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : T[K];
};
