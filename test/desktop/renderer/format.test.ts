import { describe, expect, it } from 'vitest';
import { baseName, formatBytes, plural } from '../../../desktop/renderer/lib/format.js';

describe('formatting for people', () => {
  it('writes sizes in the largest fitting unit', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(14_540)).toBe('14.2 KB');
    expect(formatBytes(3_250_000)).toBe('3.1 MB');
    expect(formatBytes(250 * 1024 * 1024)).toBe('250 MB');
  });

  it('counts with the right plural', () => {
    expect(plural(1, 'document')).toBe('1 document');
    expect(plural(0, 'document')).toBe('0 documents');
  });

  it('names a source by its last path or URL segment', () => {
    expect(baseName('uploads/manuals/rotor.pdf')).toBe('rotor.pdf');
    expect(baseName('C:\\docs\\wing.md')).toBe('wing.md');
    expect(baseName('https://example.com/guide/')).toBe('guide');
  });
});
