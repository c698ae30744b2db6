/**
 * Private files for secrets handed to `wg`: a directory only this process's
 * user can enter, files created 0600, everything removed right after use.
 * This keeps private and preshared keys out of argv (visible in /proc to every
 * user) and out of long-lived files.
 */

export interface SecretDir extends AsyncDisposable {
  /** Writes `content` to a new 0600 file and returns its path. */
  write(name: string, content: string): Promise<string>;
  readonly path: string;
}

/** A fresh private directory, removed on dispose. */
export async function secretDir(): Promise<SecretDir> {
  const path = await Deno.makeTempDir({ prefix: "palisade-wg-" });
  await Deno.chmod(path, 0o700);
  return {
    path,
    async write(name, content) {
      const file = `${path}/${name}`;
      await Deno.writeTextFile(file, content, { mode: 0o600, createNew: true });
      return file;
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
