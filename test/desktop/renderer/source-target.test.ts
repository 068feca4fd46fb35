import { describe, expect, it } from 'vitest';
import {
  citedPlace,
  openingOf,
  targetOfCitation,
  targetOfHit,
} from '../../../desktop/renderer/lib/source-target.js';

describe('opening a source', () => {
  it('opens a cited PDF page in the PDF viewer, keeping the passage to highlight', () => {
    const target = targetOfCitation('manuals', {
      n: 1,
      documentId: 'd1',
      title: 'Tail rotor manual',
      path: 'uploads/manuals/rotor.pdf',
      page: 3,
      snippet: 'The gearbox holds 0.4 litres.',
      score: 2.1,
    });
    expect(target).toEqual({
      namespace: 'manuals',
      documentId: 'd1',
      title: 'Tail rotor manual',
      path: 'uploads/manuals/rotor.pdf',
      page: 3,
      passage: 'The gearbox holds 0.4 litres.',
    });
    expect(openingOf(target)).toBe('pdf');
    expect(citedPlace(target)).toBe('Cited on page 3');
  });

  it('opens a web page in the browser', () => {
    const target = targetOfHit('web', {
      text: 'Lift grows.',
      score: 1,
      source: { documentId: 'd2', title: 'Wings', url: 'https://example.com/wings', heading: 'Lift' },
    });
    expect(openingOf(target)).toBe('browser');
  });

  it('opens Markdown, HTML and text at the cited heading', () => {
    const target = targetOfHit('notes', {
      text: 'Foam extinguishers…',
      score: 1,
      source: { documentId: 'd3', title: 'Hangar safety', path: 'uploads/notes/safety.md', heading: 'Fire' },
    });
    expect(openingOf(target)).toBe('text');
    expect(citedPlace(target)).toBe('Cited under “Fire”');
  });

  it('says nothing about a place when a document is opened from the list', () => {
    expect(citedPlace({ namespace: 'n', documentId: 'd', title: 't', page: 1, passage: '' })).toBeUndefined();
  });
});
