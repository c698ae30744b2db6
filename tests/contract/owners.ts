/** The two users (u1 alice, u2 bob) that own the sessions and tokens of the auth contract suites. */
import type { UserRepo } from "../../lib/auth/user_repo.ts";

export async function seedOwners(users: UserRepo): Promise<void> {
  for (const [id, username] of [["u1", "alice"], ["u2", "bob"]]) {
    await users.insert({
      id,
      username,
      email: `${username}@example.org`,
      role: "operator",
      passwordHash: "hash",
      createdAt: 1,
    });
  }
}
