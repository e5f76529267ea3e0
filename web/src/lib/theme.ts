/**
 * The colour theme: the user's choice (system, light or dark; kept in localStorage) and the
 * theme in force, written to <html data-theme> where styles/tokens.css picks its colours.
 * "system" follows prefers-color-scheme, also when it changes while the page is open.
 */
import { useCallback, useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
export const THEME_STORAGE_KEY = 'theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

const listeners = new Set<() => void>();

function isChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

export function storedThemeChoice(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isChoice(value) ? value : 'system';
  } catch {
    // Storage can be refused (private modes); the system's theme is then the choice.
    return 'system';
  }
}

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

export function resolveTheme(choice: ThemeChoice): Theme {
  return choice === 'system' ? systemTheme() : choice;
}

/** Writes the theme in force to <html>; the browser's own parts (scrollbars, inputs) follow. */
export function applyTheme(choice: ThemeChoice = storedThemeChoice()): Theme {
  const theme = resolveTheme(choice);
  document.documentElement.dataset.theme = theme;
  document.documentElement.style.colorScheme = theme;
  return theme;
}

export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not kept across visits, still applied now.
  }
  applyTheme(choice);
  listeners.forEach((listener) => listener());
}

/** Applies the stored choice now and again whenever the system's scheme changes. Call once at start. */
export function startTheme(): void {
  applyTheme();
  if (typeof window.matchMedia !== 'function') return;
  window.matchMedia(DARK_QUERY).addEventListener('change', () => {
    applyTheme();
    listeners.forEach((listener) => listener());
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The choice and the theme in force, re-rendered when either changes. */
export function useTheme(): { choice: ThemeChoice; theme: Theme; choose: (choice: ThemeChoice) => void } {
  const choice = useSyncExternalStore(subscribe, storedThemeChoice, () => 'system' as const);
  const theme = useSyncExternalStore(
    subscribe,
    () => resolveTheme(storedThemeChoice()),
    () => 'light' as const,
  );
  const choose = useCallback((next: ThemeChoice) => setThemeChoice(next), []);
  return { choice, theme, choose };
}
