/**
 * What a console run returned: the output (JSON pretty-printed, text as it
 * is; the service has masked secrets already), stderr, exit code, duration
 * and, for a host command, the command line as run.
 */
import { Badge } from "@/components/badge.tsx";
import { Fact, Facts } from "@/components/fact.tsx";
import type { ConsoleResult } from "@/lib/console/schema.ts";

/** The output as shown: text unchanged, anything else as indented JSON. */
export function outputText(output: unknown): string {
  return typeof output === "string" ? output : JSON.stringify(output, null, 2) ?? "null";
}

export function ConsoleResultView({ result }: { result: ConsoleResult }) {
  return (
    <section aria-labelledby="console-result" class="card">
      <h2 id="console-result">
        Output of <code>{result.command}</code>
      </h2>
      <Facts>
        <Fact label="Exit code">
          <Badge status={result.exit_code === 0 ? "ok" : "fail"} label={String(result.exit_code)} />
        </Fact>
        <Fact label="Duration">{`${result.duration_ms} ms`}</Fact>
        <Fact label="Kind">{result.kind}</Fact>
        {result.command_line !== null && (
          <Fact label="Command line">
            <code data-command-line>{result.command_line}</code>
          </Fact>
        )}
      </Facts>
      {result.truncated && <p class="muted">The output was cut at 1,000,000 characters.</p>}
      <pre class="console-output" data-console-output tabIndex={0}>{outputText(result.output)}</pre>
      {result.stderr && (
        <>
          <h3>Standard error</h3>
          <pre class="console-output" data-console-stderr tabIndex={0}>{result.stderr}</pre>
        </>
      )}
    </section>
  );
}
