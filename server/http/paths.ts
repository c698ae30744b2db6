/** `file:` URL → path (`@std/path` is on JSR, unreachable here). */
export function fromFileUrl(url: URL): string {
  if (url.protocol !== "file:") throw new Error(`Not a file URL: ${url}`);
  return decodeURIComponent(url.pathname);
}
