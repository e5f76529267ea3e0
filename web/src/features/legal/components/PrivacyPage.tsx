/** /privacy: the Privacy Policy (LegalPage.tsx). */
import type { ReactElement } from 'react';
import { LegalPage, PRIVACY } from './LegalPage.tsx';

export default function PrivacyPage(): ReactElement {
  return <LegalPage document={PRIVACY} />;
}
