import { describe, expect, it } from 'vitest';

// Captured before the knowledge package loads (its modules are imported dynamically below).
const nativeStringify = JSON.stringify;
const nativeParse = JSON.parse;

describe('loading the knowledge package', () => {
  it('leaves the global JSON functions in place until a PDF is parsed', async () => {
    await import('../../../knowledge/index.js');
    await import('../../../knowledge/loaders/index.js');
    await import('../../../knowledge/server/index.js');
    expect(JSON.stringify).toBe(nativeStringify);
    expect(JSON.parse).toBe(nativeParse);
  });
});
