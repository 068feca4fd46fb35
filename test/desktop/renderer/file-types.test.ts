import { describe, expect, it } from 'vitest';
import { SUPPORTED_EXTENSIONS } from '../../../knowledge/index.js';
import { INGESTIBLE_EXTENSIONS, isIngestible } from '../../../desktop/renderer/lib/file-types.js';

describe('file types the window offers to ingest', () => {
  it('are exactly the types the engine reads', () => {
    expect([...INGESTIBLE_EXTENSIONS].sort()).toEqual([...SUPPORTED_EXTENSIONS].sort());
  });

  it('are recognised by extension, whatever its case', () => {
    expect(isIngestible('Manual.PDF')).toBe(true);
    expect(isIngestible('notes.md')).toBe(true);
    expect(isIngestible('photo.jpg')).toBe(false);
    expect(isIngestible('.md')).toBe(false);
  });
});
