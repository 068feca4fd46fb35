import { describe, expect, it } from 'vitest';
import { loadSource } from '../../../knowledge/loaders/index.js';

describe('raw text', () => {
  it('keeps the title it is given', async () => {
    const doc = await loadSource({
      kind: 'text',
      text: 'Service every 500 hours.\n\nUse the blue gasket.',
      title: ' Pump FAQ ',
    });
    expect(doc).toEqual({
      title: 'Pump FAQ',
      origin: { kind: 'text' },
      format: 'text',
      pages: [{ text: 'Service every 500 hours.\n\nUse the blue gasket.' }],
      warnings: [],
    });
  });

  it('is titled by its first line when no title is given', async () => {
    const doc = await loadSource({ kind: 'text', text: '\n  Service intervals  \nEvery 500 hours.' });
    expect(doc.title).toBe('Service intervals');
  });

  it('shortens a long first line used as title', async () => {
    const doc = await loadSource({ kind: 'text', text: 'word '.repeat(100) });
    expect(doc.title.length).toBeLessThanOrEqual(80);
    expect(doc.title.endsWith('…')).toBe(true);
  });

  it('refuses empty text', async () => {
    await expect(loadSource({ kind: 'text', text: ' \n\t ' })).rejects.toThrow('the text is empty');
  });

  it('turns a form feed into a paragraph break so it cannot pose as a page separator', async () => {
    const doc = await loadSource({ kind: 'text', text: 'one\ftwo', title: 't' });
    expect(doc.pages[0]?.text).toBe('one\n\ntwo');
  });
});
