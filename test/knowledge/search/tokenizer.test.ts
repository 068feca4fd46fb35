import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTokenizer, DEFAULT_SETTINGS } from '../../../knowledge/search/index.js';

const tokenizer = createTokenizer(DEFAULT_SETTINGS.tokenizer);
const terms = (text: string) => tokenizer.terms(text);

describe('tokenizer', () => {
  it('lower-cases and Porter-stems English words', () => {
    expect(terms('Aerodynamics')).toEqual(terms('aerodynamic'));
    expect(terms('Pressures measured')).toEqual(['pressur', 'measur']);
  });

  it('drops English stop words', () => {
    expect(terms('the flow of the air')).toEqual(['flow', 'air']);
    expect(terms('what is it that they were')).toEqual([]);
  });

  it('keeps every occurrence, so term frequency survives', () => {
    expect(terms('wing wing wing')).toEqual(['wing', 'wing', 'wing']);
  });

  it('folds diacritics both ways', () => {
    expect(terms('Müller')).toEqual(terms('Muller'));
    expect(terms('café naïve Straße')).toEqual(['cafe', 'naiv', 'strass']);
  });

  it('applies NFKC, so full-width letters and ligatures read as plain ones', () => {
    expect(terms('Ｔｏｋｙｏ ﬁnance')).toEqual(terms('Tokyo finance'));
  });

  it('strips a possessive and keeps decimals whole', () => {
    expect(terms("Müller's ratio 3.14")).toEqual(['muller', 'ratio', '3.14']);
  });

  it('turns Chinese and Japanese into overlapping character pairs', () => {
    expect(terms('東京都に住んでいます')).toContain('東京');
    expect(terms('東京')).toEqual(['東京']);
    expect(terms('北京大学')).toEqual(['北京', '京大', '大学']);
  });

  it('segments scripts written without spaces into words with Intl.Segmenter', () => {
    const thai = terms('ภาษาไทยง่ายนิดเดียว');
    expect(thai.length).toBeGreaterThan(1);
    expect(thai).toContain('ไทย');
  });

  it('neither stems nor stop-words non-latin scripts', () => {
    expect(terms('Москва Αθήνα')).toEqual(['москва', 'αθηνα']);
  });

  it('reports the offsets of the word each term came from', () => {
    const found: [string, number, number][] = [];
    tokenizer.forEachTerm('The Wing tips', (term, start, end) => found.push([term, start, end]));
    expect(found).toEqual([
      ['wing', 4, 8],
      ['tip', 9, 13],
    ]);
  });

  it('keeps apostrophes inside words and decimal points inside numbers, and nothing else', () => {
    const found: [string, number, number][] = [];
    tokenizer.forEachTerm("Mach 3.14abc, don't ab'c9 x.y 1,000 'quoted' end.", (term, start, end) =>
      found.push([term, start, end]),
    );
    expect(found).toEqual([
      ['mach', 0, 4],
      ['3.14', 5, 9],
      ['abc', 9, 12],
      ['abc', 20, 24],
      ['9', 24, 25],
      ['x', 26, 27],
      ['y', 28, 29],
      ['1,000', 30, 35],
      ['quot', 37, 43],
      ['end', 45, 48],
    ]);
  });

  it('finds the same wanted terms at the same offsets as the full pass, for every word of real abstracts', async () => {
    const raw = await readFile(
      fileURLToPath(new URL('../../../../shared/data/cranfield/cran.all.1400', import.meta.url)),
      'utf8',
    );
    const abstracts = raw.split(/^\.I /m).slice(1, 101);
    for (const text of [...abstracts, 'Müller’s aerodynamics ⑴ 東京都 flow']) {
      const all: [string, number, number][] = [];
      tokenizer.forEachTerm(text, (term, start, end) => all.push([term, start, end]));
      for (const term of new Set(all.map(([t]) => t))) {
        const found: [string, number, number][] = [];
        tokenizer.forEachTermIn(text, new Set([term, 'zzz']), (t, start, end) => found.push([t, start, end]));
        expect(found).toEqual(all.filter(([t]) => t === term));
      }
    }
  });

  it('returns no terms for empty or punctuation-only text', () => {
    expect(terms('')).toEqual([]);
    expect(terms(' -- ... !? ')).toEqual([]);
  });
});
