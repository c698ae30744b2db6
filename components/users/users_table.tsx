import { formatTime } from "@/components/format.ts";
import { ROLES } from "@/lib/auth/roles.ts";
import type { UserInfo } from "@/lib/auth/user.ts";
import type { SecondFactors } from "@/lib/auth/two_factor_admin.ts";
import { type Column, Table } from "@/components/table.tsx";
import LiveRegion from "@/islands/LiveRegion.tsx";

const COLUMNS: Column[] = [
  { label: "User" },
  { label: "E-mail" },
  { label: "Last sign-in" },
  { label: "Role" },
  { label: "Second factors" },
];

/** A refused role change, shown in that user's row. */
export interface RoleError {
  id: string;
  message: string;
}

/**
 * The accounts, each with its own role form. Live: users have no event of
 * their own, but every change to one is audited with `resource_type` "user".
 */
export function UsersTable(
  { users, me, roleError, factors }: {
    users: UserInfo[];
    me: string;
    roleError: RoleError | null;
    /** Each user's second factors, by id. */
    factors: Record<string, SecondFactors>;
  },
) {
  return (
    <section aria-labelledby="people">
      <div class="row spread">
        <h2 id="people">Accounts</h2>
        <LiveRegion
          region="users-table"
          on={[{ type: "AuditEvent", where: { resource_type: "user" } }]}
        />
      </div>
      <div id="users-table">
        <Table columns={COLUMNS}>
          {users.map((u) => (
            <tr>
              <th scope="row">
                {u.username}
                {u.id === me && <span class="muted">&nbsp;(you)</span>}
              </th>
              <td>{u.email || <span class="muted">—</span>}</td>
              <td>{u.last_login ? formatTime(u.last_login) : "never"}</td>
              <td>
                <RoleForm user={u} error={roleError?.id === u.id ? roleError.message : null} />
              </td>
              <td>
                <FactorsCell user={u} factors={factors[u.id]} me={u.id === me} />
              </td>
            </tr>
          ))}
        </Table>
      </div>
    </section>
  );
}

/** A one-select form changing a user's role, with its refusal below it. */
function RoleForm({ user: u, error }: { user: UserInfo; error: string | null }) {
  const id = `role-${u.id}`;
  return (
    <>
      <form method="post" class="row nowrap" aria-label={`Role of ${u.username}`}>
        <input type="hidden" name="_action" value="role" />
        <input type="hidden" name="user_id" value={u.id} />
        <label for={id} class="visually-hidden">Role of {u.username}</label>
        <select
          id={id}
          name="role"
          class="compact"
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        >
          {ROLES.map((r) => <option key={r} value={r} selected={r === u.role}>{r}</option>)}
        </select>
        <button type="submit">
          Change<span class="visually-hidden">{` role of ${u.username}`}</span>
        </button>
      </form>
      {error && <p id={`${id}-error`} class="field-error" role="alert">{error}</p>}
    </>
  );
}

/** "TOTP, 2 passkeys" or "none", and the way to reset them (one's own: the Security page). */
function FactorsCell(
  { user: u, factors, me }: { user: UserInfo; factors?: SecondFactors; me: boolean },
) {
  const parts = [
    factors?.totp && "TOTP",
    factors?.passkeys && `${factors.passkeys} passkey${factors.passkeys === 1 ? "" : "s"}`,
  ].filter(Boolean);
  return (
    <div class="stack" data-second-factors={u.username}>
      <span>{parts.length ? parts.join(", ") : <span class="muted">none</span>}</span>
      {me
        ? <a href="/account/security">Security page</a>
        : parts.length > 0 && (
          <a href={`/users/${u.id}/reset-two-factor`}>
            Reset two-factor<span class="visually-hidden">{` of ${u.username}`}</span>
          </a>
        )}
    </div>
  );
}
