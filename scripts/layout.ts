/**
 * The layout rules of docs/architecture.md, checked: file and function
 * sizes, SQL only in the store and repositories, no literal HTTP status in a
 * route, nothing deciding from an error's message text, and `lib/` free of
 * routes, islands, Hono and the browser module's glue. `deno task layout`
 * prints every violation; tests/layout_test.ts fails on any.
 */
import ts from "typescript";

const ROOT = new URL("../", import.meta.url);

/** Folders whose files the rules cover. */
export const CHECKED_DIRS = ["lib", "server", "routes", "islands", "components"] as const;
export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;

/** SQL keywords (case-sensitive, as SQL is written here) and the statement API. */
const SQL = /prepare\(|\bSELECT\b|\bINSERT\b|\bUPDATE\b|DELETE FROM/;
/** Decisions taken from an error's text: `err.message.startsWith(…)`, `/…/.test(e.message)`. */
const MESSAGE_TEST =
  /\.message\s*\.\s*(startsWith|endsWith|includes|match|indexOf|search)\s*\(|\.(test|exec)\(\s*[\w.]*\.message\b|\.message\s*===?\s*["'`]/;

export interface Violation {
  file: string;
  line: number;
  rule: string;
  detail: string;
}

async function walk(dir: URL, rel: string, out: string[]): Promise<void> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${rel}/${e.name}`;
    if (e.isDirectory) await walk(new URL(`${e.name}/`, dir), path, out);
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(path);
  }
}

/** Every TypeScript file of the checked folders, relative to the project root. */
export async function checkedFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const d of CHECKED_DIRS) await walk(new URL(`${d}/`, ROOT), d, out);
  return out.sort();
}

const isGenerated = (file: string) => /\.gen\.tsx?$/.test(file);
const isTest = (file: string) => /_test\.tsx?$/.test(file);
/** Where SQL may be written in lib/: the store and the repositories. */
const mayHoldSql = (file: string) => file.startsWith("lib/store/") || /_repo\.ts$/.test(file);

function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  if (parent && ts.isCallExpression(parent)) {
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteral(first) ? ` ${JSON.stringify(first.text)}` : "";
    return `callback of ${parent.expression.getText(source).slice(0, 40)}${label}`;
  }
  return "(anonymous)";
}

/** Functions, methods and arrow functions longer than MAX_FUNCTION_LINES. */
export function longFunctions(file: string, text: string): Violation[] {
  const kind = file.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const out: Violation[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) {
        out.push({
          file,
          line: start + 1,
          rule: "function-lines",
          detail: `${
            functionName(node, source)
          } has ${lines} lines (at most ${MAX_FUNCTION_LINES})`,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/** An import's specifier. */
const IMPORT_FROM = /from\s+["']([^"']+)["']/;
/** What lib/ may not import: the HTTP layer, pages (top-level folders), Hono, the browser module's glue. */
const LIB_FORBIDDEN_DIRS = ["server/", "routes/", "islands/"];

/**
 * True when `spec`, imported by `file`, is what lib/ may not import. Paths
 * are resolved first, so a domain folder of lib/ that happens to be called
 * `routes` (lib/tunnel/routes/) is not the top-level routes/.
 */
function forbiddenLibImport(file: string, spec: string): boolean {
  if (/hono|wasm\/glue/.test(spec)) return true;
  const path = spec.startsWith("@/")
    ? spec.slice(2)
    : spec.startsWith(".")
    ? new URL(spec, `file:///${file}`).pathname.slice(1)
    : null;
  return path !== null && LIB_FORBIDDEN_DIRS.some((d) => path.startsWith(d));
}
/** The one adapter of the WASM core on the server, which loads it through the glue. */
const GLUE_ADAPTER = "lib/attest/core.ts";

/** A literal status in a route: `status: 404`, `new Response(…, { status: 201 })`, `errorJson(404`. */
const LITERAL_STATUS =
  /\bstatus\s*:\s*\d{3}\b|\bstatus\s*=\s*\d{3}\b|\(\s*\d{3}\s*,|,\s*[1-5]\d\d\s*\)/;

/** The rules read line by line: SQL, message decisions, literal statuses, lib imports. */
export function lineRules(file: string, lines: string[]): Violation[] {
  const out: Violation[] = [];
  lines.forEach((text, i) => {
    const at = { file, line: i + 1 };
    if (file.startsWith("lib/") && !mayHoldSql(file) && SQL.test(text)) {
      out.push({ ...at, rule: "sql-outside-repo", detail: text.trim() });
    }
    if (MESSAGE_TEST.test(text)) {
      out.push({ ...at, rule: "decides-on-message", detail: text.trim() });
    }
    if (file.startsWith("routes/") && LITERAL_STATUS.test(text)) {
      out.push({ ...at, rule: "literal-status", detail: text.trim() });
    }
    const spec = IMPORT_FROM.exec(text)?.[1];
    if (
      file.startsWith("lib/") && spec && forbiddenLibImport(file, spec) && file !== GLUE_ADAPTER
    ) {
      out.push({ ...at, rule: "lib-import", detail: text.trim() });
    }
  });
  return out;
}

/** Every violation in the checked folders. */
export async function checkLayout(): Promise<Violation[]> {
  const out: Violation[] = [];
  for (const file of await checkedFiles()) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    const lines = text.split("\n");
    if (text.endsWith("\n")) lines.pop();
    if (!isGenerated(file) && lines.length > MAX_FILE_LINES) {
      out.push({
        file,
        line: 1,
        rule: "file-lines",
        detail: `${lines.length} lines (at most ${MAX_FILE_LINES})`,
      });
    }
    if (!isGenerated(file)) out.push(...longFunctions(file, text));
    out.push(
      ...lineRules(file, lines).filter((v) => !(isTest(file) && v.rule === "literal-status")),
    );
  }
  return out;
}

if (import.meta.main) {
  const found = await checkLayout();
  for (const v of found) console.log(`${v.file}:${v.line}  ${v.rule}  ${v.detail}`);
  console.log(found.length ? `${found.length} violations` : "layout ok");
  Deno.exit(found.length ? 1 : 0);
}
