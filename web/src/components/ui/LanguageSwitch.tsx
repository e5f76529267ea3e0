/**
 * The language switch (English / हिन्दी) of the public header, the guest screens and the
 * signed-in navigation: a native select, compact enough for a phone's header, labelled
 * "Language" in the language in force. Each option names its language in itself (with its
 * own lang), so someone who cannot read the current one still finds theirs.
 */
import type { ChangeEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '../../i18n/i18n.ts';
import { HTML_LANG, isLanguage, LANGUAGES, type Language } from '../../i18n/language.ts';
import { Icon } from './icons.tsx';
import styles from './LanguageSwitch.module.css';

const NAME_KEY = { en: 'language.english', hi: 'language.hindi' } as const satisfies Record<Language, string>;

export function LanguageSwitch({ className }: { className?: string }): ReactElement {
  const { t } = useTranslation();
  const { language, choose } = useLanguage();
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    if (isLanguage(event.target.value)) choose(event.target.value);
  };
  return (
    <label className={className ? `${styles.switch} ${className}` : styles.switch}>
      <Icon name="globe" size={16} />
      <span className="sr-only">{t('language.label')}</span>
      <select className={styles.select} value={language} onChange={onChange}>
        {LANGUAGES.map((option) => (
          <option key={option} value={option} lang={HTML_LANG[option]}>
            {t(NAME_KEY[option])}
          </option>
        ))}
      </select>
    </label>
  );
}
