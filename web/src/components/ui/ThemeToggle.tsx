/**
 * The theme switch of the app shell: System, Light or Dark, as a group of three pressed /
 * not-pressed buttons (one tap each, readable by screen readers), kept across visits.
 */
import type { ReactElement } from 'react';
import { THEME_CHOICES, useTheme, type ThemeChoice } from '../../lib/theme.ts';
import { Icon, type IconName } from './icons.tsx';

const LABELS: Record<ThemeChoice, { text: string; icon: IconName }> = {
  system: { text: 'System', icon: 'monitor' },
  light: { text: 'Light', icon: 'sun' },
  dark: { text: 'Dark', icon: 'moon' },
};

export function ThemeToggle(): ReactElement {
  const { choice, choose } = useTheme();
  return (
    <div className="theme-toggle" role="group" aria-label="Theme">
      {THEME_CHOICES.map((option) => (
        <button
          key={option}
          type="button"
          className={`theme-option${choice === option ? ' active' : ''}`}
          aria-pressed={choice === option}
          onClick={() => choose(option)}
          title={`${LABELS[option].text} theme`}
        >
          <Icon name={LABELS[option].icon} size={16} />
          <span>{LABELS[option].text}</span>
        </button>
      ))}
    </div>
  );
}
