/**
 * The architecture page's lists: what users and admins can do, and what the ledger guarantees.
 */
import type { ReactElement } from 'react';
import styles from './ArchitecturePage.module.css';

export function ArchitectureFeatures(): ReactElement {
  return (
    <div className={styles.archFeatures}>
      <section>
        <h2>For users</h2>
        <ul>
          <li>Instant transfers with recipient verification</li>
          <li>Card, UPI and bank transfer deposits</li>
          <li>Scan-to-pay QR codes</li>
          <li>Money requests; an accepted request creates a transaction automatically</li>
          <li>PIN and password reset by e-mail code</li>
        </ul>
      </section>
      <section>
        <h2>For admins</h2>
        <ul>
          <li>List every user with role and status</li>
          <li>Verify (activate) or suspend accounts</li>
          <li>Settle pending bank and UPI deposits</li>
        </ul>
      </section>
      <section>
        <h2>Guarantees</h2>
        <ul>
          <li>Double-entry ledger: every posting set sums to zero</li>
          <li>No balance below zero, even under concurrent payments</li>
          <li>Idempotent commands: a retried payment runs once</li>
          <li>Read-your-writes: screens refresh exactly after your command</li>
        </ul>
      </section>
    </div>
  );
}
