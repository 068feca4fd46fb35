import { en, type Strings } from './locales/en.js';

export type { Strings };

/** The languages the widget ships; any other falls back to English. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface Locale {
  language: Language;
  strings: Strings;
}

export const ENGLISH: Locale = { language: 'en', strings: en };

export function toLanguage(requested: string | undefined): Language {
  const base = (requested ?? 'en').toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : 'en';
}

/** English is built in; other languages are fetched (ES module build) or unpacked (script build) only when selected. */
export async function loadLocale(requested: string | undefined): Promise<Locale> {
  const language = toLanguage(requested);
  if (language === 'de') return { language, strings: (await import('./locales/de.js')).de };
  return ENGLISH;
}

/** `format('{count} unread', {count: 3})` → `3 unread`; unknown placeholders stay as written. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}
