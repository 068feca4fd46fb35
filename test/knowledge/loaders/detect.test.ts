import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSource, SourceError } from '../../../knowledge/loaders/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-detect-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('detectSource', () => {
  it('takes an http or https string as a URL', () => {
    expect(detectSource('https://example.com/docs/page.html')).toEqual({
      kind: 'url',
      url: 'https://example.com/docs/page.html',
    });
    expect(detectSource('HTTP://Example.com')).toEqual({ kind: 'url', url: 'http://example.com/' });
  });

  it('takes an existing path as a file', async () => {
    const path = join(dir, 'notes.md');
    await writeFile(path, '# Notes');
    expect(detectSource(path)).toEqual({ kind: 'file', path });
  });

  it('takes an existing folder as a file source for the caller to walk', () => {
    expect(detectSource(dir)).toEqual({ kind: 'file', path: dir });
  });

  it('takes anything else as raw text', () => {
    const text = 'The pump must be serviced every 500 hours.\nUse the blue gasket.';
    expect(detectSource(text)).toEqual({ kind: 'text', text });
  });

  it('refuses file: and other schemes by name', () => {
    expect(() => detectSource('file:///etc/passwd')).toThrow(
      new SourceError('unsupported URL scheme "file:": only http and https URLs can be loaded'),
    );
    expect(() => detectSource('ftp://example.com/a.pdf')).toThrow('unsupported URL scheme "ftp:"');
    expect(() => detectSource('javascript:alert(1)')).toThrow('unsupported URL scheme "javascript:"');
  });

  it('reports a path that does not exist instead of indexing the path as text', () => {
    expect(() => detectSource(join(dir, 'missing.pdf'))).toThrow(
      `file not found: ${join(dir, 'missing.pdf')}`,
    );
    expect(() => detectSource('./docs/guide.md')).toThrow('file not found: ./docs/guide.md');
  });

  it('refuses an empty source', () => {
    expect(() => detectSource('   ')).toThrow('the source is empty');
  });
});
