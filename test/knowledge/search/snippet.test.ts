import { describe, expect, it } from 'vitest';
import { makeSnippet } from '../../../knowledge/search/index.js';

const filler = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(' ');

describe('makeSnippet', () => {
  it('returns a short text whole, with whitespace collapsed', () => {
    expect(makeSnippet('Wing  loads\n\nin gusts', 'wing')).toBe('Wing loads in gusts');
  });

  it('cuts a long text around the query terms, with ellipses where it was cut', () => {
    const text = `${filler(100)} the flutter of a wing at transonic speed ${filler(100)}`;
    const snippet = makeSnippet(text, 'wing flutter', 120);
    expect(snippet).toContain('flutter of a wing at transonic speed');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(122);
  });

  it('prefers the window holding the most distinct query terms', () => {
    const text = `wing ${filler(60)} wing ${filler(60)} wing flutter ${filler(60)}`;
    expect(makeSnippet(text, 'wing flutter', 80)).toContain('wing flutter');
  });

  it('matches stemmed and folded forms of the query words', () => {
    const text = `${filler(80)} as Müller measured the aerodynamics ${filler(80)}`;
    expect(makeSnippet(text, 'muller aerodynamic', 100)).toContain('Müller measured the aerodynamics');
  });

  it('starts at the beginning when no query term occurs', () => {
    const snippet = makeSnippet(filler(200), 'zeppelin', 50);
    expect(snippet.startsWith('word0 word1')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });
});
