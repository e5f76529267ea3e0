/**
 * The Users page's state: the user list, the filter tab with each tab's count, and
 * Suspend / Activate (the mutation, which user it is busy with, and its toast). Activate first
 * opens the identity check; the activation is sent from its confirmation.
 */
import i18next from 'i18next';
import { useState } from 'react';
import { useToast } from '../../../components/ui/Toaster.tsx';
import { NetworkError } from '../../../lib/api-client.ts';
import { useAllUsers, type UserRecord } from '../api/get-all-users.ts';
import { useUpdateUserVerifiedStatus } from '../api/update-user-verified-status.ts';

export const USER_FILTERS = [
  { id: 'all', label: 'users.all', test: () => true },
  { id: 'admins', label: 'users.admins', test: (user: UserRecord) => user.isAdmin },
  { id: 'verified', label: 'users.verified', test: (user: UserRecord) => user.isVerified },
  { id: 'unverified', label: 'users.unverified', test: (user: UserRecord) => !user.isVerified },
] as const;
export type UserFilterId = (typeof USER_FILTERS)[number]['id'];

const testOf = (id: UserFilterId) => USER_FILTERS.find((entry) => entry.id === id)?.test ?? (() => true);

export function useUsersPage() {
  const [filter, setFilterId] = useState<UserFilterId>('all');
  const users = useAllUsers();
  const update = useUpdateUserVerifiedStatus();
  const notify = useToast();
  const all = users.data ?? [];

  // The user whose identity check is open: Activate opens it, and only its confirmation activates.
  const [checking, setChecking] = useState<UserRecord | null>(null);

  /** Sends the change and says how it went; true when the server made it. */
  async function send(body: Parameters<typeof update.mutateAsync>[0]): Promise<boolean> {
    try {
      const reply = await update.mutateAsync(body);
      notify({
        tone: reply.success ? 'success' : 'error',
        message: reply.message || i18next.t(reply.success ? 'users.updated' : 'users.updateFailed'),
      });
      return reply.success;
    } catch (error) {
      notify({
        tone: 'error',
        message: error instanceof NetworkError ? i18next.t('users.networkError') : i18next.t('users.updateFailed'),
      });
      return false;
    }
  }

  async function toggle(user: UserRecord): Promise<void> {
    if (!user.isVerified) {
      setChecking(user);
      return;
    }
    await send({ selectedUser: user._id, isVerified: false });
  }

  async function activate(user: UserRecord): Promise<void> {
    if (await send({ selectedUser: user._id, isVerified: true, documentChecked: true })) setChecking(null);
  }

  return {
    users,
    all,
    filter,
    /** Chooses a tab by its id; an unknown id falls back to All. */
    setFilter: (value: string) => setFilterId(USER_FILTERS.find((entry) => entry.id === value)?.id ?? 'all'),
    /** The chosen tab's name inside a sentence ("No verified users found"). */
    filterLabel: i18next.t(USER_FILTERS.find((entry) => entry.id === filter)?.label ?? 'users.all').toLowerCase(),
    rows: all.filter(testOf(filter)),
    count: (id: UserFilterId) => all.filter(testOf(id)).length,
    toggle,
    checking,
    closeCheck: () => setChecking(null),
    activate,
    isBusy: (user: UserRecord) => update.isPending && update.variables?.selectedUser === user._id,
  };
}
