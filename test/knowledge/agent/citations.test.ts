import { describe, expect, it } from 'vitest';
import { checkCitations, citationFor, sourcesList } from '../../../knowledge/agent/citations.js';

describe('citations', () => {
  it('keeps citations of passages that were given and removes the others', () => {
    const checked = checkCitations('Lift grows with speed [1]. Drag is friction [7]. Both matter [2, 9].', 3);
    expect(checked.text).toBe('Lift grows with speed [1]. Drag is friction. Both matter [2].');
    expect(checked.cited).toEqual([1, 2]);
    expect(checked.removed).toEqual([7, 9]);
  });

  it('lists one line per cited source with title, page and URL', () => {
    const pdf = citationFor(
      {
        text: 'Lift.',
        score: 2,
        source: { documentId: 'd1', title: 'Wing design', path: '/docs/wing.pdf', page: 3 },
      },
      1,
    );
    const web = citationFor(
      {
        text: 'Drag.',
        score: 1,
        source: { documentId: 'd2', title: 'Drag notes', url: 'https://example.org/drag' },
      },
      2,
    );
    expect(sourcesList([pdf, web])).toBe(
      'Sources:\n[1] Wing design, p. 3\n[2] Drag notes, https://example.org/drag',
    );
  });

  it('shows a Markdown passage in the snippet without heading marks', () => {
    const citation = citationFor(
      { text: '# Wing design\n\nLift grows.', score: 1, source: { documentId: 'd', title: 'Wing design' } },
      1,
    );
    expect(citation.snippet).toBe('Wing design Lift grows.');
  });

  it('names an untitled file source by its file name', () => {
    const citation = citationFor(
      { text: 'x', score: 1, source: { documentId: 'd', title: '', path: '/a/b/notes.md' } },
      1,
    );
    expect(sourcesList([citation])).toBe('Sources:\n[1] notes.md');
  });
});
