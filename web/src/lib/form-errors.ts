/**
 * The shared form rules' messages in the reader's language. contracts/ words every rule once,
 * in English, for the server and the forms alike (the API's messages stay as the spec says);
 * the web shows them through the `formErrors` texts, whose English is those very words. A
 * message is matched to its key by the English text, its `{{placeholders}}` standing for the
 * figures the rule put in ("Maximum deposit amount is ₹1,00,000"); one that is not a shared
 * rule's (already translated, or a server's own words) is shown as it came.
 */
import type { TFunction } from 'i18next';
import { en } from '../i18n/resources/en.ts';

type FormErrorKey = keyof typeof en.formErrors;

interface Pattern {
  key: FormErrorKey;
  matcher: RegExp;
  names: string[];
}

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function patternOf(key: FormErrorKey, english: string): Pattern {
  const names = [...english.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
  const source = english
    .split(PLACEHOLDER)
    // split keeps the captured names at odd indexes: each becomes a figure's group.
    .map((part, index) => (index % 2 === 1 ? '(.+?)' : escaped(part)))
    .join('');
  return { key, matcher: new RegExp(`^${source}$`), names };
}

const EXACT = new Map<string, FormErrorKey>();
const PATTERNS: Pattern[] = [];
for (const [key, english] of Object.entries(en.formErrors) as [FormErrorKey, string][]) {
  if (english.includes('{{')) PATTERNS.push(patternOf(key, english));
  else EXACT.set(english, key);
}

/** A shared rule's message in the chosen language (`t` from useTranslation, so a switch re-renders it). */
export function localizedFormError(message: string, t: TFunction): string {
  const exact = EXACT.get(message);
  if (exact) return t(`formErrors.${exact}`);
  for (const pattern of PATTERNS) {
    const match = pattern.matcher.exec(message);
    if (!match) continue;
    const values = Object.fromEntries(pattern.names.map((name, index) => [name, match[index + 1] ?? '']));
    // `replace` holds the figures: i18next types named options per key, and these keys are a union.
    return t(`formErrors.${pattern.key}`, { replace: values });
  }
  return message;
}
