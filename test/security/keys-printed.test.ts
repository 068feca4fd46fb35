import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parleyCommand } from '../support/built.js';

const PARLEY_ENV = ['PARLEY_APP_ID', 'PARLEY_API_KEY', 'PARLEY_AUTH_KEY', 'AGENT_API_KEY', 'DATABASE_URL'];

/**
 * Runs `parley <args>` as a real process until its start-up output matches `ready`, stops it, and
 * returns everything it wrote to stdout and stderr.
 */
async function startupOutput(
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !PARLEY_ENV.includes(name)),
  );
  const child = spawn(process.execPath, [...(await parleyCommand()), ...args], {
    env: { ...inherited, NODE_NO_WARNINGS: '1', NO_COLOR: '1', ...env },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (ready.test(output)) resolve();
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) =>
        reject(new Error(`parley ${args[2] ?? ''} exited with ${code}: ${output}`)),
      );
    });
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  }
  return output;
}

const sha256Prefix = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 12);

describe('keys printed at start (issue #18, defect 7)', () => {
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-keys-'));
    dataDirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('parley chat-server shows keys given by flag or environment only as fingerprints', async () => {
    const apiKey = 'operator-full-access-key-4f1a9c';
    const authKey = 'operator-auth-only-key-77d2e0';
    const output = await startupOutput(
      ['--data-dir', dataDir(), 'chat-server', '--port', '0', '--app-id', 'acme', '--api-key', apiKey],
      /^App acme/m,
      { PARLEY_AUTH_KEY: authKey },
    );

    expect(output).not.toContain(apiKey);
    expect(output).not.toContain(authKey);
    expect(output).toContain(`apikey (fullAccess) oper… (sha256 ${sha256Prefix(apiKey)})`);
    expect(output).toContain(`auth key (authOnly) oper… (sha256 ${sha256Prefix(authKey)})`);
  });

  it('parley chat-server prints the keys it generates once, and their fingerprints at the next start', async () => {
    const dir = dataDir();
    const first = await startupOutput(['--data-dir', dir, 'chat-server', '--port', '0'], /^App /m);
    const apiKey = /apikey \(fullAccess\) ([0-9a-f]{40}) \(new: shown only now, keep it\)/.exec(first)?.[1];
    const authKey = /auth key \(authOnly\) ([0-9a-f]{40}) \(new: shown only now, keep it\)/.exec(first)?.[1];
    expect(apiKey).toBeDefined();
    expect(authKey).toBeDefined();

    const second = await startupOutput(['--data-dir', dir, 'chat-server', '--port', '0'], /^App /m);
    expect(second).not.toContain(apiKey);
    expect(second).not.toContain(authKey);
    expect(second).toContain(`(sha256 ${sha256Prefix(apiKey!)})`);
    expect(second).toContain(`(sha256 ${sha256Prefix(authKey!)})`);
  });

  it('parley agent never prints AGENT_API_KEY or the model key, and shows the agent key as a fingerprint', async () => {
    const agentKey = 'agent-operator-key-0b5e3d91';
    const modelKey = 'sk-model-provider-key-6a2c';
    const output = await startupOutput(
      ['--data-dir', dataDir(), 'agent', '--port', '0'],
      /local paths under/,
      {
        AGENT_API_KEY: agentKey,
        LLM_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_MODEL: 'local-model',
        LLM_PROVIDER_API_KEY: modelKey,
      },
    );

    expect(output).not.toContain(agentKey);
    expect(output).not.toContain(modelKey);
    expect(output).toContain(`API key: required, agen… (sha256 ${sha256Prefix(agentKey)})`);
  });

  it('parley start prints the demo keys in full only on the run that created them', async () => {
    const dir = dataDir();
    const start = () =>
      startupOutput(['--data-dir', dir, 'start', '--port', '0', '--agent-port', '0'], /^Namespace demo/m);
    const first = await start();
    const apiKey = /REST API key \(fullAccess\): ([0-9a-f]{40}) \(new/.exec(first)?.[1];
    const authKey = /auth key \(authOnly[^)]*\): ([0-9a-f]{40}) \(new/.exec(first)?.[1];
    expect(apiKey).toBeDefined();
    expect(authKey).toBeDefined();

    const second = await start();
    expect(second).not.toContain(apiKey);
    expect(second).not.toContain(authKey);
    expect(second).toContain(
      `REST API key (fullAccess): ${apiKey!.slice(0, 4)}… (sha256 ${sha256Prefix(apiKey!)})`,
    );
    expect(second).toContain(`(sha256 ${sha256Prefix(authKey!)})`);
  }, 120_000);
});
