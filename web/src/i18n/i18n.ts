/**
 * The app's i18next instance: English bundled (the fallback), Hindi loaded as its own chunk
 * the first time it is chosen (it would put the landing page over its size budget for
 * everyone), and the switch that changes the language, remembers it and updates <html lang>.
 * main.tsx waits for the stored language before the first render, so no screen flashes in
 * the other one.
 */
import i18next from 'i18next';
import { useCallback } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en, type Messages } from './resources/en.ts';
import { applyHtmlLang, isLanguage, storedLanguage, storeLanguage, type Language } from './language.ts';

declare module 'i18next' {
  // t('login.title') is checked against en.ts's keys at compile time.
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}

/** Starts i18next in the stored (or given) language; resolves once its texts are loaded. */
export function startI18n(language: Language = storedLanguage()): Promise<void> {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { en: { translation: en } },
      lng: 'en',
      fallbackLng: 'en',
      supportedLngs: ['en', 'hi'],
      // React escapes what it renders; i18next escaping too would show &amp; in the page.
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
      partialBundledLanguages: true,
    });
  }
  applyHtmlLang(language);
  return switchTo(language);
}

/** Adds a language's texts to i18next, fetching their chunk the first time. */
export async function loadLanguage(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  if (language === 'hi') {
    const { hi } = await import('./resources/hi.ts');
    i18next.addResourceBundle('hi', 'translation', hi);
  }
}

/** At once when the texts are here (the switch re-renders in the same tick), else after loading them. */
function switchTo(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) {
    void i18next.changeLanguage(language);
    return Promise.resolve();
  }
  return loadLanguage(language).then(
    () => void i18next.changeLanguage(language),
    // A chunk that cannot load (offline, a deploy replaced it): English stays, the app works.
    () => undefined,
  );
}

/** The language in force (English before i18next has started). */
export function currentLanguage(): Language {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(language) ? language : 'en';
}

/** Switches at once when the texts are loaded, else as soon as their chunk is in. */
export function setLanguage(language: Language): void {
  storeLanguage(language);
  applyHtmlLang(language);
  void switchTo(language);
}

/** The language in force and the switch; components using it re-render when it changes. */
export function useLanguage(): { language: Language; choose: (language: Language) => void } {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const choose = useCallback((next: Language) => setLanguage(next), []);
  return { language, choose };
}
