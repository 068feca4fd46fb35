import { describe, expect, it } from 'vitest';
import { trayStatusText } from '../../../desktop/main/tray-status.js';

describe('tray status', () => {
  it('names the address while the agent runs idle', () => {
    expect(trayStatusText({ state: 'running', url: 'http://127.0.0.1:4111/api', indexing: 0 })).toBe(
      'Running on 127.0.0.1:4111',
    );
  });

  it('counts the files being indexed', () => {
    expect(trayStatusText({ state: 'running', url: 'http://127.0.0.1:4111/api', indexing: 1 })).toBe(
      'Indexing 1 file…',
    );
    expect(trayStatusText({ state: 'running', url: 'http://127.0.0.1:4111/api', indexing: 3 })).toBe(
      'Indexing 3 files…',
    );
  });

  it('says what went wrong', () => {
    expect(trayStatusText({ state: 'error', message: 'listen EACCES 0.0.0.0:80' })).toBe(
      'Error: listen EACCES 0.0.0.0:80',
    );
  });
});
