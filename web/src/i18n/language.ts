/**
 * The languages of the web app and the user's choice: kept in localStorage, written to
 * <html lang> (en-IN / hi-IN, so screen readers pronounce Hindi as Hindi), and the Intl
 * locale numbers and dates are formatted in. Both locales group digits the Indian way
 * (1,00,000); Hindi keeps Latin digits, as Indian banking apps and the API's amounts do.
 */
export type Language = 'en' | 'hi';

export const LANGUAGES: readonly Language[] = ['en', 'hi'];
export const LANGUAGE_STORAGE_KEY = 'language';

export const HTML_LANG: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN' };
const FORMAT_LOCALE: Record<Language, string> = { en: 'en-IN', hi: 'hi-IN-u-nu-latn' };

export function isLanguage(value: unknown): value is Language {
  return value === 'en' || value === 'hi';
}

export function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : 'en';
  } catch {
    // Storage can be refused (private modes): English, the spec's language, is then the choice.
    return 'en';
  }
}

export function storeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not kept across visits, still applied now.
  }
}

export function applyHtmlLang(language: Language): void {
  document.documentElement.lang = HTML_LANG[language];
}

/** The Intl locale for a language's numbers and dates. */
export function formatLocale(language: Language): string {
  return FORMAT_LOCALE[language];
}
