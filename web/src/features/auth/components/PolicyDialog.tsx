/**
 * The Terms of Service and Privacy Policy the registration form links to, in a dialog.
 */
import type { ReactElement } from 'react';
import { Button } from '../../../components/ui/Button.tsx';
import { Modal } from '../../../components/ui/Modal.tsx';

export const POLICIES = {
  terms: {
    title: 'Terms of Service',
    text: 'Wallet balances are held in Indian rupees. You authorise every payment with your transaction PIN and remain responsible for keeping it secret. Accounts are activated after identity verification.',
  },
  privacy: {
    title: 'Privacy Policy',
    text: 'We keep your identity details to verify your account and to meet our regulatory duties. We never share your PIN or password; they are stored only as one-way hashes.',
  },
} as const;

export type Policy = keyof typeof POLICIES;

export function PolicyDialog({ policy, onClose }: { policy: Policy | null; onClose: () => void }): ReactElement {
  return (
    <Modal
      open={policy !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={policy ? POLICIES[policy].title : ''}
    >
      <p>{policy ? POLICIES[policy].text : ''}</p>
      <div className="modal-actions">
        <Button onClick={onClose}>Close</Button>
      </div>
    </Modal>
  );
}
