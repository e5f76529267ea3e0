/**
 * A success the server says in English ("Transfer completed successfully!", the spec's words):
 * shown as the server says it in English, and as the app's own text in another language,
 * where the English would be the one foreign line on the screen. It carries nothing the app's
 * text does not. (A refusal keeps the server's words: they say which rule, see pin-refusal.ts.)
 */
import { currentLanguage } from '../i18n/i18n.ts';

export function successWords(serverMessage: string | undefined, translated: string): string {
  return currentLanguage() === 'en' && serverMessage ? serverMessage : translated;
}
