/** POST /cli/execute for tests, with the raw response text for secret searches. */
import type { TestServer } from "./test_server.ts";

export interface Exec {
  status: number;
  text: string;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** POST /cli/execute with `cookie`; the raw text too, for secret searches. */
export function executor(t: TestServer, cookie: string) {
  return async (body: Record<string, unknown>): Promise<Exec> => {
    const res = await fetch(`${t.admin}/api/v1/cli/execute`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) };
  };
}
