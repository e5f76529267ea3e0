/**
 * The app's i18next instance: English and Hindi texts bundled (no loading step, so the
 * first render is already in the chosen language), English as the fallback, and the
 * switch that changes the language, remembers it and updates <html lang>.
 */
import i18next from 'i18next';
import { useCallback } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { en, type Messages } from './resources/en.ts';
import { hi } from './resources/hi.ts';
import { applyHtmlLang, isLanguage, storedLanguage, storeLanguage, type Language } from './language.ts';

declare module 'i18next' {
  // t('login.title') is checked against en.ts's keys at compile time.
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Messages };
  }
}

/** Starts i18next in the stored (or given) language. Call once, before the first render. */
export function startI18n(language: Language = storedLanguage()): void {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { en: { translation: en }, hi: { translation: hi } },
      lng: language,
      fallbackLng: 'en',
      supportedLngs: ['en', 'hi'],
      // React escapes what it renders; i18next escaping too would show &amp; in the page.
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  } else {
    void i18next.changeLanguage(language);
  }
  applyHtmlLang(language);
}

/** The language in force (English before i18next has started). */
export function currentLanguage(): Language {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(language) ? language : 'en';
}

export function setLanguage(language: Language): void {
  storeLanguage(language);
  applyHtmlLang(language);
  void i18next.changeLanguage(language);
}

/** The language in force and the switch; components using it re-render when it changes. */
export function useLanguage(): { language: Language; choose: (language: Language) => void } {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en';
  const choose = useCallback((next: Language) => setLanguage(next), []);
  return { language, choose };
}
