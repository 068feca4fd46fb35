import { describe, expect, it } from 'vitest';
import { format, loadLocale, toLanguage, useLocaleAssets } from '../../widget/i18n.js';
import { de } from '../../widget/locales/de.js';
import { en } from '../../widget/locales/en.js';

describe('locales', () => {
  it('German has every English string and no other', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it('keep the placeholders of each English string', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[])
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]));
  });

  it('load German when asked for de or a German region', async () => {
    useLocaleAssets(async () => de);
    expect((await loadLocale('de-AT')).strings.send).toBe('Senden');
  });

  it('fall back to English for a language the widget does not ship', async () => {
    expect(toLanguage('fr')).toBe('en');
    expect((await loadLocale('fr')).strings.send).toBe('Send');
  });

  it('fill placeholders', () => {
    expect(format('{count} unread', { count: 3 })).toBe('3 unread');
  });
});
