import type { ManagedUser } from '@agentry/contracts';
import type { User } from '@agentry/db';

/** Never carries the password hash. */
export function toManagedUser(row: User): ManagedUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    displayName: row.displayName,
    role: row.role,
    disabled: row.disabledAt !== null,
    createdAt: row.createdAt.toISOString(),
  };
}
