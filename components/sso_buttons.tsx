/** The sign-in page's single sign-on part (docs/sso.md): a button per enabled provider. */
import type { Sso } from "@/lib/compose/sso.ts";

export interface SsoChoices {
  providers: { id: string; displayName: string }[];
  passwordEnabled: boolean;
}

export async function ssoChoices(sso: Sso): Promise<SsoChoices> {
  return {
    providers: await sso.providers.buttons(),
    passwordEnabled: await sso.providers.localPasswordEnabled(),
  };
}

export function SsoButtons({ choices, next }: { choices: SsoChoices; next: string }) {
  if (choices.providers.length === 0) return null;
  const query = next === "/" ? "" : `?next=${encodeURIComponent(next)}`;
  return (
    <nav class="card stack sso" aria-label="Single sign-on">
      {choices.providers.map((p) => (
        <a key={p.id} class="button-link" href={`/sso/${encodeURIComponent(p.id)}${query}`}>
          Sign in with {p.displayName}
        </a>
      ))}
    </nav>
  );
}
