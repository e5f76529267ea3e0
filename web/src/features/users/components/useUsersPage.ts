/**
 * The Users page's state: the user list, the filter tab with each tab's count, and
 * Suspend / Activate (the mutation, which user it is busy with, and its toast).
 */
import { useState } from 'react';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { useAllUsers, type UserRecord } from '../api/get-all-users.ts';
import { useUpdateUserVerifiedStatus } from '../api/update-user-verified-status.ts';

export const USER_FILTERS = [
  { id: 'all', label: 'All', test: () => true },
  { id: 'admins', label: 'Admins', test: (user: UserRecord) => user.isAdmin },
  { id: 'verified', label: 'Verified', test: (user: UserRecord) => user.isVerified },
  { id: 'unverified', label: 'Unverified', test: (user: UserRecord) => !user.isVerified },
] as const;
export type UserFilterId = (typeof USER_FILTERS)[number]['id'];

const testOf = (id: UserFilterId) => USER_FILTERS.find((entry) => entry.id === id)?.test ?? (() => true);

export function useUsersPage() {
  const [filter, setFilterId] = useState<UserFilterId>('all');
  const users = useAllUsers();
  const update = useUpdateUserVerifiedStatus();
  const notify = useToast();
  const all = users.data ?? [];

  async function toggle(user: UserRecord): Promise<void> {
    try {
      const reply = await update.mutateAsync({ selectedUser: user._id, isVerified: !user.isVerified });
      notify({
        tone: reply.success ? 'success' : 'error',
        message: reply.message || (reply.success ? 'User updated' : 'Failed to update user'),
      });
    } catch (error) {
      notify({
        tone: 'error',
        message:
          error instanceof NetworkError
            ? 'Network error. Please check your connection and try again.'
            : 'Failed to update user',
      });
    }
  }

  return {
    users,
    all,
    filter,
    /** Chooses a tab by its id; an unknown id falls back to All. */
    setFilter: (value: string) => setFilterId(USER_FILTERS.find((entry) => entry.id === value)?.id ?? 'all'),
    filterLabel: USER_FILTERS.find((entry) => entry.id === filter)?.label.toLowerCase() ?? '',
    rows: all.filter(testOf(filter)),
    count: (id: UserFilterId) => all.filter(testOf(id)).length,
    toggle,
    isBusy: (user: UserRecord) => update.isPending && update.variables?.selectedUser === user._id,
  };
}
