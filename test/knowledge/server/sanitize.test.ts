import { afterEach, describe, expect, it } from 'vitest';
import { sanitizeMessage } from '../../../knowledge/server/sanitize.js';

describe('sanitizeMessage', () => {
  afterEach(() => {
    delete process.env.PARLEY_TEST_TOKEN;
  });

  it('keeps only the first line, so no stack trace gets out', () => {
    const error = new Error('the index could not be read');
    expect(sanitizeMessage(error.stack ?? '')).toBe('Error: the index could not be read');
  });

  it('cuts absolute paths and file URLs to their last segment', () => {
    expect(
      sanitizeMessage(
        "ENOENT: no such file or directory, open '/srv/parley/data/knowledge/docs/manifest.json'",
      ),
    ).toBe("ENOENT: no such file or directory, open 'manifest.json'");
    expect(
      sanitizeMessage('failed in file:///srv/app/knowledge/engine.js and C:\\Users\\ana\\notes.md'),
    ).toBe('failed in engine.js and notes.md');
  });

  it('leaves URLs of sources readable', () => {
    expect(sanitizeMessage('https://example.org/guide/intro.html answered HTTP 404')).toBe(
      'https://example.org/guide/intro.html answered HTTP 404',
    );
  });

  it('replaces secrets and environment values', () => {
    process.env.PARLEY_TEST_TOKEN = 'tok-71c2aa90e1';
    expect(
      sanitizeMessage('provider refused sk-live-0042abcd; token tok-71c2aa90e1', ['sk-live-0042abcd']),
    ).toBe('provider refused [redacted]; token [redacted]');
  });
});
