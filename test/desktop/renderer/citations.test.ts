import { describe, expect, it } from 'vitest';
import { answerBody, answerParts } from '../../../desktop/renderer/lib/citations.js';

describe('answer citations', () => {
  it('splits an answer into text and the citation marks it contains', () => {
    expect(answerParts('Lift grows [1]. Drag falls [2, 3].')).toEqual([
      { kind: 'text', text: 'Lift grows ' },
      { kind: 'citation', numbers: [1] },
      { kind: 'text', text: '. Drag falls ' },
      { kind: 'citation', numbers: [2, 3] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leaves bracketed text that is not a citation as text', () => {
    expect(answerParts('See [note] and [a1].')).toEqual([{ kind: 'text', text: 'See [note] and [a1].' }]);
  });

  it('cuts the trailing Sources list, which the window shows as links', () => {
    expect(answerBody('Lift grows [1].\n\nSources:\n[1] wing.pdf, page 2')).toBe('Lift grows [1].');
  });

  it('cuts a Sources list that is still streaming in', () => {
    expect(answerBody('Lift grows [1].\n\nSourc')).toBe('Lift grows [1].\n\nSourc');
    expect(answerBody('Lift grows [1].\n\nSources:')).toBe('Lift grows [1].');
  });
});
