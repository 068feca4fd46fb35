import { execFile, spawn } from 'node:child_process';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeEngine } from '../../../knowledge/index.js';
import { GenerateResponse } from '../../../shared/agent.js';
import { DOCUMENTS } from './support.js';
import { parleyCommand } from '../../support/built.js';

const run = promisify(execFile);
const parleyArgs = async (...args: string[]) => [...(await parleyCommand()), ...args];

describe('parley agent and parley ask', () => {
  let root: string;
  let dataDir: string;
  beforeAll(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'parley-agent-cli-')));
    dataDir = join(root, 'data');
    const file = join(root, 'wing.md');
    await writeFile(file, DOCUMENTS['wing.md']!);
    const engine = await KnowledgeEngine.open({ dataDir });
    await engine.ingest('docs', [{ kind: 'file', path: file }]);
    await engine.close();
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('ask prints the answer with its Sources list', async () => {
    const { stdout } = await run(
      process.execPath,
      await parleyArgs('ask', 'what makes lift grow?', '--namespace', 'docs', '--data-dir', dataDir),
    );
    expect(stdout).toMatch(/^Lift grows with the angle of attack until the wing stalls\. \[1\]/);
    expect(stdout).toMatch(/\n\nSources:\n\[1\] Wing design\n$/);
  });

  it('ask --json prints the generate response', async () => {
    const { stdout } = await run(
      process.execPath,
      await parleyArgs(
        'ask',
        'what makes lift grow?',
        '--namespace',
        'docs',
        '--json',
        '--data-dir',
        dataDir,
      ),
    );
    const answer = GenerateResponse.parse(JSON.parse(stdout));
    expect(answer.sources[0]).toMatchObject({ n: 1, title: 'Wing design' });
  });

  it('ask names a namespace that does not exist', async () => {
    const failure = await run(
      process.execPath,
      await parleyArgs('ask', 'lift?', '--namespace', 'nowhere', '--data-dir', dataDir),
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/namespace "nowhere" does not exist/),
    });
  });

  it('agent serves the API on the loopback address and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, await parleyArgs('agent', '--port', '0', '--data-dir', dataDir), {
      env: { ...process.env, AGENT_API_KEY: '' },
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const lines = createInterface({ input: child.stdout });
      let apiUrl = '';
      for await (const line of lines) {
        apiUrl = /listening on (http:\/\/\S+\/api)/.exec(line)?.[1] ?? '';
        if (apiUrl) break;
      }
      expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      const response = await fetch(`${apiUrl}/agents/knowledge/generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          messages: [{ role: 'user', content: '@agent what makes lift grow?' }],
          toolParams: { namespace: 'docs' },
        }),
      });
      expect(GenerateResponse.parse(await response.json()).text).toMatch(/Sources:\n\[1\] Wing design$/);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
