import { describe, expect, it } from 'vitest';
import { highlightParts, queryTerms } from '../../../desktop/renderer/lib/highlight.js';

const marked = (text: string, query: string) =>
  highlightParts(text, queryTerms(query))
    .filter((part) => part.match)
    .map((part) => part.text);

describe('search term highlighting', () => {
  it('takes the distinct words of a query in lower case, leaving out single letters', () => {
    expect(queryTerms('Rotor a blade, rotor!')).toEqual(['rotor', 'blade']);
  });

  it('marks words of the text that match a term, whatever their case', () => {
    expect(marked('The Rotor blades turn; the rotor hub holds them.', 'rotor')).toEqual(['Rotor', 'rotor']);
  });

  it('marks other forms of a word that share its stem', () => {
    expect(marked('Rotors balance lift.', 'rotor lifting')).toEqual(['Rotors', 'lift']);
  });

  it('does not mark short words that merely start like a term', () => {
    expect(marked('The theory of the rotor.', 'the')).toEqual(['The', 'the']);
  });

  it('keeps every character of the text, in order', () => {
    const text = 'Lift — grows (with) angle; lift!';
    expect(
      highlightParts(text, ['lift'])
        .map((part) => part.text)
        .join(''),
    ).toBe(text);
  });
});
