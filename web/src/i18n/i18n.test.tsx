/**
 * The two languages: every English text has a Hindi one with the same placeholders; the
 * switch changes the screen, <html lang> and the stored choice, and a start reads the choice
 * back; numbers keep Indian grouping and Latin digits in Hindi, dates take Hindi month names.
 */
import { act, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LoginForm } from '../features/auth/components/LoginForm.tsx';
import { formatDateTime, formatRupees } from '../lib/format.ts';
import { fakeApi, renderWithApp } from '../test/harness.tsx';
import { setLanguage, startI18n } from './i18n.ts';
import { LANGUAGE_STORAGE_KEY } from './language.ts';
import { en } from './resources/en.ts';
import { hi } from './resources/hi.ts';

type Texts = { readonly [key: string]: string | Texts };

function flatten(texts: Texts, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(texts)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [inner, text] of flatten(value, path)) entries.set(inner, text);
  }
  return entries;
}

const placeholders = (text: string): string[] => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? '');

describe('the texts', () => {
  it('has a non-empty Hindi text with the same placeholders for every English key', () => {
    const english = flatten(en);
    const hindi = flatten(hi);
    expect([...hindi.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      expect(hindi.get(key)?.trim(), key).toBeTruthy();
      expect(placeholders(hindi.get(key) ?? '').sort(), key).toEqual(placeholders(text).sort());
    }
  });
});

describe('the language switch', () => {
  it('turns the sign-in screen into Hindi and back, with <html lang> and the stored choice', async () => {
    fakeApi({});
    renderWithApp(<LoginForm onSignedIn={() => undefined} onForgotPassword={() => undefined} />, { path: '/login' });
    expect(document.documentElement.lang).toBe('en-IN');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'hi');
    expect(await screen.findByRole('heading', { name: 'फिर से स्वागत है' })).toBeTruthy();
    expect(screen.getByLabelText('ईमेल')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'साइन इन करें' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('hi-IN');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('hi');

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'भाषा' }), 'en');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('en-IN');
    expect(window.localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
  });

  it('starts in the stored language (a reload keeps the choice)', async () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'hi');
    startI18n();
    fakeApi({});
    renderWithApp(<LoginForm onSignedIn={() => undefined} onForgotPassword={() => undefined} />, { path: '/login' });
    expect(await screen.findByRole('heading', { name: 'फिर से स्वागत है' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('hi-IN');
  });

  it('starts in English when nothing, or something unknown, is stored', () => {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    startI18n();
    expect(document.documentElement.lang).toBe('en-IN');
  });
});

describe('numbers and dates in both languages', () => {
  const iso = '2026-03-05T10:04:00.000Z';

  it('groups rupees the Indian way with Latin digits in Hindi too', () => {
    act(() => setLanguage('hi'));
    expect(formatRupees(100000.5)).toBe('₹1,00,000.50');
    expect(formatRupees(1234567)).toBe('₹12,34,567');
    act(() => setLanguage('en'));
    expect(formatRupees(100000.5)).toBe('₹1,00,000.50');
  });

  it('gives dates Hindi month names and Latin digits in Hindi, English ones in English', () => {
    act(() => setLanguage('hi'));
    const hindiDate = formatDateTime(iso);
    expect(hindiDate).toContain('मार्च');
    expect(hindiDate).toContain('2026');
    expect(hindiDate).not.toMatch(/[०-९]/);
    act(() => setLanguage('en'));
    expect(formatDateTime(iso)).toContain('Mar');
    expect(formatDateTime(iso)).not.toContain('मार्च');
  });
});
