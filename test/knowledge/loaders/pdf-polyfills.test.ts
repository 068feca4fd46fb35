import { describe, expect, it } from 'vitest';

describe('loading the knowledge package', () => {
  it('leaves the global JSON functions native until a PDF is parsed', async () => {
    await import('../../../knowledge/index.js');
    await import('../../../knowledge/server/index.js');
    expect(Function.prototype.toString.call(JSON.stringify)).toContain('[native code]');
    expect(Function.prototype.toString.call(JSON.parse)).toContain('[native code]');
  });
});
