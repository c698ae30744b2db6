/** Polls `check` every `stepMs` until it is true or `ms` have passed; says which happened. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  ms: number,
  stepMs = 50,
): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return false;
}
