import { isCurrent, NAV } from "@/components/nav.ts";
import { roleAtLeast } from "@/lib/auth/roles.ts";
import type { LayoutProps } from "@/server/http/define.ts";

/** Header with navigation and the signed-in user, around every dashboard page. */
export default function DashboardLayout({ Component, state, url }: LayoutProps) {
  const user = state.auth?.user;
  const sections = NAV.filter((item) => !item.role || (user && roleAtLeast(user.role, item.role)));
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="topbar">
        <a class="brand" href="/">Palisade</a>
        <nav aria-label="Main">
          <ul>
            {sections.map((item) => (
              <li>
                <a
                  href={item.path}
                  aria-current={isCurrent(item.path, url.pathname) ? "page" : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {user && (
          <form method="post" action="/logout" class="whoami">
            <span>
              {user.username} <span class="role">{user.role}</span>
            </span>
            <button type="submit" class="link">Log out</button>
          </form>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        <Component />
      </main>
    </>
  );
}
