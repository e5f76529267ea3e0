/**
 * The theme switch of the app shell: System, Light or Dark, as a group of three pressed /
 * not-pressed buttons (one tap each, readable by screen readers), kept across visits.
 */
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { THEME_CHOICES, useTheme, type ThemeChoice } from '../../lib/theme.ts';
import { Icon, type IconName } from './icons.tsx';

const LABELS = {
  system: { text: 'theme.system', icon: 'monitor' },
  light: { text: 'theme.light', icon: 'sun' },
  dark: { text: 'theme.dark', icon: 'moon' },
} as const satisfies Record<ThemeChoice, { text: string; icon: IconName }>;

export function ThemeToggle(): ReactElement {
  const { choice, choose } = useTheme();
  const { t } = useTranslation();
  return (
    <div className="theme-toggle" role="group" aria-label={t('theme.label')}>
      {THEME_CHOICES.map((option) => (
        <button
          key={option}
          type="button"
          className={`theme-option${choice === option ? ' active' : ''}`}
          aria-pressed={choice === option}
          onClick={() => choose(option)}
          title={t('theme.title', { theme: t(LABELS[option].text) })}
        >
          <Icon name={LABELS[option].icon} size={16} />
          <span>{t(LABELS[option].text)}</span>
        </button>
      ))}
    </div>
  );
}
