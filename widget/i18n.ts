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

/** Where the other languages come from: `parley-de.js` beside the script build, a chunk of the ES module build. */
let loadStrings: ((language: Exclude<Language, 'en'>) => Promise<Strings>) | undefined;

export function useLocaleAssets(load: (language: Exclude<Language, 'en'>) => Promise<Strings>): void {
  loadStrings = load;
}

/** English is built in; other languages are fetched only when selected (English while they cannot be). */
export async function loadLocale(requested: string | undefined): Promise<Locale> {
  const language = toLanguage(requested);
  if (language === 'en' || !loadStrings) return ENGLISH;
  return { language, strings: await loadStrings(language) };
}

/** `format('{count} unread', {count: 3})` → `3 unread`; unknown placeholders stay as written. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** A file size as people read it: `820 byte`, `14.2 kB`, `3.1 MB` in the language's own way. */
export function formatBytes(bytes: number, language: Language): string {
  const [unit, value] =
    bytes < 1e3 ? ['byte', bytes] : bytes < 1e6 ? ['kilobyte', bytes / 1e3] : ['megabyte', bytes / 1e6];
  return new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}
