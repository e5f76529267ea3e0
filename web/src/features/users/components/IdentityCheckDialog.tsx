/**
 * The identity check before an activation (issue 41 item 2): the details the customer
 * registered - name, e-mail, contact, address, ID type and the ID number masked but for its
 * last four - with Reveal for the full number (the server records every reveal in the audit
 * trail) and the confirmation "I have checked the document against these details", without
 * which Activate stays disabled. The activation sends the confirmation; the server records it.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';
import type { UserRecord } from '../api/get-all-users.ts';
import { useRevealIdentification } from '../api/reveal-identification.ts';
import styles from './IdentityCheckDialog.module.css';
import { idTypeLabel } from '../../../lib/id-type.ts';

export function IdentityCheckDialog({
  user,
  busy,
  onClose,
  onActivate,
}: {
  user: UserRecord | null;
  busy: boolean;
  onClose: () => void;
  onActivate: (user: UserRecord) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <Modal
      open={user !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t('identityCheck.title')}
      description={user ? t('identityCheck.description', { name: `${user.firstName} ${user.lastName}` }) : undefined}
      busy={busy}
    >
      {/* Keyed by the user: another customer's check starts unticked and masked. */}
      {user ? <CheckForm key={user._id} user={user} busy={busy} onClose={onClose} onActivate={onActivate} /> : null}
    </Modal>
  );
}

function CheckForm({
  user,
  busy,
  onClose,
  onActivate,
}: {
  user: UserRecord;
  busy: boolean;
  onClose: () => void;
  onActivate: (user: UserRecord) => void;
}): ReactElement {
  const { t } = useTranslation();
  const [checked, setChecked] = useState(false);
  const name = `${user.firstName} ${user.lastName}`;
  const details: [string, ReactElement | string][] = [
    [t('identityCheck.name'), name],
    [t('identityCheck.email'), user.email],
    [t('identityCheck.contact'), user.contactNo || '-'],
    [t('identityCheck.address'), user.address || '-'],
    [t('identityCheck.idType'), user.identification ? idTypeLabel(user.identification) : '-'],
    [t('identityCheck.idNumber'), <IdNumber key="number" user={user} />],
  ];
  return (
    <form
      className="form-stack"
      onSubmit={(event) => {
        event.preventDefault();
        if (checked) onActivate(user);
      }}
    >
      <dl className={styles.details}>
        {details.map(([label, value]) => (
          <div key={label} className={styles.detail}>
            <dt className="muted">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <label className={styles.confirm}>
        <input type="checkbox" checked={checked} onChange={(event) => setChecked(event.target.checked)} />
        <span>{t('identityCheck.confirm')}</span>
      </label>
      <div className="modal-actions">
        <Button variant="secondary" type="button" onClick={onClose}>
          {t('identityCheck.cancel')}
        </Button>
        <Button variant="success" type="submit" disabled={!checked || busy}>
          {t('identityCheck.activate')}
        </Button>
      </div>
    </form>
  );
}

/** The masked number, and Reveal: the full number, fetched (and recorded) only on request. */
function IdNumber({ user }: { user: UserRecord }): ReactElement {
  const { t } = useTranslation();
  const reveal = useRevealIdentification();
  const full = reveal.data?.identificationNumber;
  if (!user.identificationNumber) return <span>-</span>;
  return (
    <span className={styles.number}>
      <span className="mono" data-testid="identification-number">
        {full ?? user.identificationNumber}
      </span>
      {full ? null : (
        <Button
          size="sm"
          variant="secondary"
          type="button"
          disabled={reveal.isPending}
          onClick={() => reveal.mutate(user._id)}
          aria-label={t('identityCheck.revealNumber', { name: `${user.firstName} ${user.lastName}` })}
        >
          {t('identityCheck.reveal')}
        </Button>
      )}
      <span className={`small muted ${styles.hint}`} role={reveal.isError ? 'alert' : undefined}>
        {reveal.isError
          ? t('identityCheck.revealFailed')
          : full
            ? t('identityCheck.revealed')
            : t('identityCheck.revealHint')}
      </span>
    </span>
  );
}
