import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResponse } from '../../shared/agent.js';
import { KnowledgeEngine } from '../../knowledge/index.js';
import { writePdf } from '../knowledge/support/pdf.js';
import { runParley } from './support.js';

describe('parley search', () => {
  let root: string;
  let dataDir: string;
  let pdf: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'parley-cli-search-'));
    dataDir = join(root, 'data');
    pdf = await writePdf(
      join(root, 'lighthouse.pdf'),
      [
        { lines: ['The lamp room sits at the top.'] },
        { lines: ['The Fresnel lens focuses the beam of the lamp.'] },
      ],
      { title: 'Lighthouse guide' },
    );
    const engine = await KnowledgeEngine.open({ dataDir });
    await engine.ingest('docs', [
      { kind: 'file', path: pdf },
      { kind: 'text', title: 'Beacons', text: 'A beacon lamp.' },
    ]);
    await engine.close();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('prints ranked snippets with title, page and score', async () => {
    const run = await runParley(['search', 'fresnel lens', '-n', 'docs', '--data-dir', dataDir]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^1\. Lighthouse guide · page 2 · score \d+\.\d{3}$/m);
    expect(run.stdout).toContain(`   ${pdf}\n`);
    expect(run.stdout).toContain('   The Fresnel lens focuses the beam of the lamp.');
  });

  it('prints the results as a SearchResponse with --json, at most --limit of them', async () => {
    const run = await runParley([
      'search',
      'lamp',
      '-n',
      'docs',
      '--limit',
      '1',
      '--json',
      '--data-dir',
      dataDir,
    ]);
    expect(run.code).toBe(0);
    const response = SearchResponse.parse(JSON.parse(run.stdout));
    expect(response).toMatchObject({ namespace: 'docs', query: 'lamp' });
    expect(response.results).toHaveLength(1);
  });

  it('refuses a limit outside 1-100', async () => {
    const run = await runParley(['search', 'lamp', '-n', 'docs', '--limit', '0', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /option '--limit <n>' argument '0' is invalid\. give a whole number from 1 to 100\./,
    );
  });

  it('says so when the namespace does not exist', async () => {
    const run = await runParley(['search', 'lamp', '-n', 'nowhere', '--data-dir', dataDir]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('parley: namespace "nowhere" does not exist (parley namespaces lists them)');
  });
});
