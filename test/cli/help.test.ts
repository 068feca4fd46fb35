import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parleyCommand } from '../support/built.js';

const run = promisify(execFile);
const parley = async (...args: string[]) =>
  run(process.execPath, [...(await parleyCommand()), ...args], {
    env: { ...process.env, NO_COLOR: '1' },
  });

describe('parley --help', () => {
  it('lists every command of the product', async () => {
    const { stdout } = await parley('--help');
    for (const command of ['start', 'agent', 'chat-server', 'ingest', 'search', 'namespaces', 'ask']) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it('documents the options of a command', async () => {
    const { stdout } = await parley('agent', '--help');
    expect(stdout).toContain('--port <port>');
    expect(stdout).toContain('--host <host>');
  });

  it('rejects an unknown command with exit code 1 and the help hint', async () => {
    const failure = await parley('frobnicate').catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(/unknown command 'frobnicate'/);
  });
});
