/**
 * The commit the server runs from, read from `.git` without running git
 * (HEAD, then the loose ref or packed-refs). "unknown" outside a checkout.
 */
export async function gitCommit(root: URL): Promise<string> {
  try {
    const head = (await Deno.readTextFile(new URL(".git/HEAD", root))).trim();
    const ref = /^ref: (.+)$/.exec(head)?.[1];
    if (!ref) return /^[0-9a-f]{40}$/.test(head) ? head : "unknown";
    try {
      return (await Deno.readTextFile(new URL(`.git/${ref}`, root))).trim();
    } catch {
      const packed = await Deno.readTextFile(new URL(".git/packed-refs", root));
      const line = packed.split("\n").find((l) => l.endsWith(` ${ref}`));
      return line?.split(" ")[0] ?? "unknown";
    }
  } catch {
    return "unknown";
  }
}
