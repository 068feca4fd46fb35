import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KnowledgeEngine } from '../../knowledge/index.js';
import { useTempFolders } from '../knowledge/engine/support.js';
import { runParley } from './support.js';

const tempFolder = useTempFolders();

async function seed(dataDir: string): Promise<void> {
  const engine = await KnowledgeEngine.open({ dataDir });
  await engine.ingest('alpha', [
    { kind: 'text', text: 'First.' },
    { kind: 'text', text: 'Second.' },
  ]);
  await engine.ingest('beta', [{ kind: 'text', text: 'Third.' }]);
  await engine.close();
}

describe('parley namespaces', () => {
  it('lists namespaces with their document and chunk counts', async () => {
    const dataDir = await tempFolder('data');
    await seed(dataDir);
    const run = await runParley(['namespaces', '--data-dir', dataDir]);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').map((line) => line.trim().split(/\s+/))).toEqual([
      ['namespace', 'documents', 'chunks'],
      [expect.stringMatching(/^-+$/), expect.stringMatching(/^-+$/), expect.stringMatching(/^-+$/)],
      ['alpha', '2', '2'],
      ['beta', '1', '1'],
      [''],
    ]);
  });

  it('says when there are none', async () => {
    const dataDir = await tempFolder('data');
    const run = await runParley(['namespaces', '--data-dir', dataDir]);
    expect(run.stdout).toBe(`No namespaces yet in ${join(dataDir, 'knowledge')}.\n`);
  });

  it('deletes a namespace with delete NS', async () => {
    const dataDir = await tempFolder('data');
    await seed(dataDir);
    const run = await runParley(['namespaces', 'delete', 'alpha', '--data-dir', dataDir]);
    expect(run).toMatchObject({ code: 0, stdout: 'Deleted namespace "alpha".\n' });
    await expect(access(join(dataDir, 'knowledge', 'alpha'))).rejects.toThrow();
    await access(join(dataDir, 'knowledge', 'beta'));
  });

  it('fails on a namespace that does not exist and on an unknown action', async () => {
    const dataDir = await tempFolder('data');
    const missing = await runParley(['namespaces', 'delete', 'ghost', '--data-dir', dataDir]);
    expect(missing).toMatchObject({ code: 1, stderr: 'parley: namespace "ghost" does not exist\n' });
    const unknown = await runParley(['namespaces', 'rename', 'ghost', '--data-dir', dataDir]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown action "rename"');
  });
});
