import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { KnowledgeEngine } from '../../knowledge/index.js';
import { useTempFolders, writeFiles } from '../knowledge/engine/support.js';
import { writePdf } from '../knowledge/support/pdf.js';
import { runParley } from './support.js';
import { parleyCommand } from '../support/built.js';

const tempFolder = useTempFolders();

/** The summary row of one outcome, as cells. */
const summaryRow = (stdout: string, outcome: string): string[] | undefined =>
  stdout
    .split('\n')
    .find((line) => line.startsWith(`${outcome} `))
    ?.trim()
    .split(/\s+/);

describe('parley ingest', () => {
  it('ingests a folder, reports each source on plain lines and ends with a summary table', async () => {
    const dataDir = await tempFolder('data');
    const sources = await tempFolder('sources');
    await writeFiles(sources, { 'a.md': '# A\n\nAnchors.', 'sub/b.md': '# B\n\nBuoys.' });
    await writePdf(join(sources, 'c.pdf'), [{ lines: ['Charts.'] }, { lines: ['Compasses.'] }]);

    const run = await runParley(['ingest', sources, '--namespace', 'docs', '--data-dir', dataDir]);

    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`indexed ${join(sources, 'c.pdf')}: 2 pages, `);
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr).not.toContain('\x1b[');
    expect(run.stdout).toMatch(/^outcome\s+sources\s+pages\s+chunks$/m);
    expect(summaryRow(run.stdout, 'indexed')).toEqual(['indexed', '3', '2', expect.stringMatching(/^\d+$/)]);
    expect(summaryRow(run.stdout, 'total')?.slice(0, 3)).toEqual(['total', '3', '2']);
  });

  it('exits with status 1 and lists each failure with its reason', async () => {
    const dataDir = await tempFolder('data');
    const sources = await tempFolder('sources');
    await writeFiles(sources, { 'good.md': '# Good\n\nGulls.' });

    const missing = join(sources, 'missing.md');
    const run = await runParley([
      'ingest',
      join(sources, 'good.md'),
      missing,
      '-n',
      'docs',
      '--data-dir',
      dataDir,
    ]);

    expect(run.code).toBe(1);
    expect(summaryRow(run.stdout, 'failed')).toEqual(['failed', '1']);
    expect(run.stdout).toMatch(/^Failures:$/m);
    expect(run.stdout).toMatch(new RegExp(`^${missing}\\s+file not found: ${missing}$`, 'm'));
    expect(run.stderr).toContain(`failed ${missing}: file not found: ${missing}`);
  });

  it('ingests the text on standard input given as -', async () => {
    const dataDir = await tempFolder('data');
    const run = await runParley(['ingest', '-', '-n', 'notes', '--data-dir', dataDir], {
      input: 'Cormorants dry their wings on the pier.',
    });
    expect(run.code).toBe(0);
    const engine = await KnowledgeEngine.open({ dataDir });
    try {
      const [hit] = await engine.search('notes', 'cormorants pier');
      expect(hit?.source.title).toBe('standard input');
    } finally {
      await engine.close();
    }
  });

  it('keeps a folder in sync with --watch until interrupted', async () => {
    const dataDir = await tempFolder('data');
    const sources = await tempFolder('sources');
    await writeFiles(sources, { 'first.md': '# First\n\nFirst words.' });
    const child = spawn(
      process.execPath,
      [...(await parleyCommand()), 'ingest', sources, '--watch', '-n', 'docs', '--data-dir', dataDir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit');
    const lines = createInterface({ input: child.stderr })[Symbol.asyncIterator]();
    const waitForLine = async (prefix: string): Promise<string> => {
      for (let next = await lines.next(); !next.done; next = await lines.next()) {
        if (next.value.startsWith(prefix)) return next.value;
      }
      throw new Error(`parley ingest --watch ended before printing "${prefix}"`);
    };
    await waitForLine('watching ');
    await writeFile(join(sources, 'second.md'), '# Second\n\nSecond words.');
    expect(await waitForLine('indexed ')).toBe(`indexed ${join(sources, 'second.md')}: 1 chunk`);
    child.kill('SIGINT');
    expect(await exited).toEqual([0, null]);
    const engine = await KnowledgeEngine.open({ dataDir });
    try {
      expect((await engine.documents('docs')).map((doc) => doc.title).sort()).toEqual(['First', 'Second']);
    } finally {
      await engine.close();
    }
  });

  it('refuses a namespace name that breaks the rules', async () => {
    const dataDir = await tempFolder('data');
    const run = await runParley(['ingest', '-', '-n', '../outside', '--data-dir', dataDir], {
      input: 'text',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^parley: invalid namespace "\.\.\/outside": a namespace is 1-64 of a-z/m);
  });
});
