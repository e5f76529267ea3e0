/**
 * The code map on the architecture page: each top-level folder, what it owns and which of our
 * folders it may import, read from contracts/code-map.ts - the same data ESLint's import zones
 * and ARCHITECTURE.md's table are generated from, so the page cannot tell a different story.
 * The descriptions stay English, like the diagram's details.
 */
import type { ReactElement, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_MAP, OTHER_FOLDERS, type CodeFolder } from '../../../../../contracts/code-map.ts';
import styles from './ArchitecturePage.module.css';

/** The map's lines mark names with backticks, as in Markdown; here they become code. */
export function CodeText({ text }: { text: string }): ReactNode {
  return text.split('`').map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

/** The folders a box of the diagram lives in, each with its line of the map. */
export function WhereItLives({ folders }: { folders: readonly CodeFolder[] }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <h3 className={styles.archDetailKicker}>{t('architecture.whereItLives')}</h3>
      <ul className={styles.archWhere}>
        {folders.map((folder) => (
          <li key={folder}>
            <code>{folder}/</code> <CodeText text={CODE_MAP[folder].owns} />
          </li>
        ))}
      </ul>
    </>
  );
}

export function CodeMap(): ReactElement {
  const { t } = useTranslation();
  return (
    <section className={styles.archCodeMap} aria-labelledby="code-map-title">
      <h2 id="code-map-title">{t('architecture.codeMapTitle')}</h2>
      <p className="section-text">{t('architecture.codeMapIntro')}</p>
      <dl>
        {Object.entries(CODE_MAP).map(([folder, rule]) => (
          <div key={folder} className={styles.archFolder}>
            <dt>
              <code>{folder}/</code>
            </dt>
            <dd>
              <CodeText text={rule.owns} />
            </dd>
            <dd className={styles.archImports}>
              {t('architecture.mayImport')}{' '}
              {rule.mayImport.length === 0
                ? t('architecture.nothingOfOurs')
                : rule.mayImport.map((name) => `${name}/`).join(', ')}
            </dd>
          </div>
        ))}
        {Object.entries(OTHER_FOLDERS).map(([folder, owns]) => (
          <div key={folder} className={styles.archFolder}>
            <dt>
              <code>{folder}/</code>
            </dt>
            <dd>
              <CodeText text={owns} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
