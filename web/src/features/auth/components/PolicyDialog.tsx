/**
 * The Terms of Service and Privacy Policy the registration form links to, in a dialog.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';

/** Translation keys of each policy's title and text. */
export const POLICIES = {
  terms: { title: 'register.termsTitle', text: 'register.termsText' },
  privacy: { title: 'register.privacyTitle', text: 'register.privacyText' },
} as const;

export type Policy = keyof typeof POLICIES;

export function PolicyDialog({ policy, onClose }: { policy: Policy | null; onClose: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <Modal
      open={policy !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={policy ? t(POLICIES[policy].title) : ''}
    >
      <p>{policy ? t(POLICIES[policy].text) : ''}</p>
      <div className="modal-actions">
        <Button onClick={onClose}>{t('common.close')}</Button>
      </div>
    </Modal>
  );
}
