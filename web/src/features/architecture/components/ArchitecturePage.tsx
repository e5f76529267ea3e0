/**
 * The architecture overview (spec section 2): an interactive diagram of the spec's boxes -
 * each a button that shows its detail and the folders it lives in in the panel - plus feature
 * lists, the code map (contracts/code-map.ts) and Get Started. Informational only. The chrome
 * is translated; the diagram's boxes, details and the map's lines stay English.
 */
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SiteHeader } from '../../../components/SiteHeader/SiteHeader.tsx';
import { ALL_BOXES, LAYERS } from './architecture-layers.ts';
import { ArchitectureFeatures } from './ArchitectureFeatures.tsx';
import { CodeMap, WhereItLives } from './CodeMap.tsx';
import styles from './ArchitecturePage.module.css';

export default function ArchitecturePage(): ReactElement {
  const [selected, setSelected] = useState<string>('transaction-api');
  const box = ALL_BOXES.find((entry) => entry.id === selected) ?? ALL_BOXES[0];
  const { t } = useTranslation();
  return (
    <div className="docs">
      <SiteHeader>
        <Link to="/docs" className="btn btn-ghost btn-md">
          {t('publicPages.docs')}
        </Link>
        {/* Get Started is at the foot of the page too; a phone's top bar, with the language switch, has room for one button. */}
        <Link to="/register" className="btn btn-primary btn-md hide-sm">
          {t('publicPages.getStarted')}
        </Link>
      </SiteHeader>
      <main id="main" className={styles.arch}>
        <h1 className="page-title">{t('architecture.title')}</h1>
        <p className="section-text">{t('architecture.intro')}</p>
        <div className={styles.archLayout}>
          <div className={styles.archDiagram}>
            {LAYERS.map((layer) => (
              <section key={layer.title} className={styles.archLayer} aria-label={layer.title}>
                <h2 className={styles.archLayerTitle}>{layer.title}</h2>
                <div className={styles.archBoxes}>
                  {layer.boxes.map((entry) => (
                    <button
                      key={entry.id}
                      type="button"
                      className={`${styles.archBox}${entry.id === selected ? ' selected' : ''}`}
                      aria-pressed={entry.id === selected}
                      aria-controls="arch-detail"
                      onClick={() => setSelected(entry.id)}
                    >
                      {entry.label}
                    </button>
                  ))}
                </div>
              </section>
            ))}
          </div>
          <aside id="arch-detail" className={styles.archDetail} aria-live="polite">
            <p className={styles.archDetailKicker}>
              {LAYERS.find((layer) => layer.boxes.some((entry) => entry.id === box?.id))?.title}
            </p>
            <h2>{box?.label}</h2>
            <p>{box?.detail}</p>
            {box && <WhereItLives folders={box.where} />}
          </aside>
        </div>
        <ArchitectureFeatures />
        <CodeMap />
        <p className="center">
          <Link to="/register" className="btn btn-primary btn-lg">
            {t('publicPages.getStarted')}
          </Link>
        </p>
      </main>
    </div>
  );
}
