/** /terms: the Terms of Service (LegalPage.tsx). */
import type { ReactElement } from 'react';
import { LegalPage, TERMS } from './LegalPage.tsx';

export default function TermsPage(): ReactElement {
  return <LegalPage document={TERMS} />;
}
