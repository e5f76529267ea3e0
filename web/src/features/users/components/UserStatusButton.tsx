/**
 * Suspend (a verified user; never oneself) or Activate (an unverified one), named after
 * the user so each row's button is told apart.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import type { UserRecord } from '../api/get-all-users.ts';

export function UserStatusButton({
  user,
  busy,
  isSelf,
  onToggle,
}: {
  user: UserRecord;
  busy: boolean;
  isSelf: boolean;
  onToggle: (user: UserRecord) => void;
}): ReactElement {
  const { t } = useTranslation();
  const name = `${user.firstName} ${user.lastName}`;
  return user.isVerified ? (
    <Button
      size="sm"
      variant="danger"
      onClick={() => onToggle(user)}
      disabled={busy || isSelf}
      aria-label={t('users.suspendUser', { name })}
    >
      {t('users.suspend')}
    </Button>
  ) : (
    <Button
      size="sm"
      variant="success"
      onClick={() => onToggle(user)}
      disabled={busy}
      aria-label={t('users.activateUser', { name })}
    >
      {t('users.activate')}
    </Button>
  );
}
