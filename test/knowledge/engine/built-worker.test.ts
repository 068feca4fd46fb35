import { execFile } from 'node:child_process';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { useTempFolders, writeFiles } from './support.js';

const run = promisify(execFile);
const tempFolder = useTempFolders();
const artifacts = resolve('test/.artifacts', `built-worker-${process.pid}`);

afterAll(async () => {
  await rm(artifacts, { recursive: true, force: true });
});

async function typeScriptFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the parser workers in the built package', () => {
  it('start from the transpiled .js entry, without tsx', async () => {
    // Transpiled 1:1 the way `npm run build` does, into a folder whose node_modules are the project's.
    await build({
      entryPoints: [...(await typeScriptFiles('knowledge')), ...(await typeScriptFiles('shared'))],
      outdir: artifacts,
      outbase: '.',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'warning',
    });
    const script = join(artifacts, 'ingest-once.mjs');
    await writeFile(
      script,
      [
        "import { KnowledgeEngine } from './knowledge/index.js';",
        'const engine = await KnowledgeEngine.open({ dataDir: process.argv[2] });',
        "const results = await engine.ingest('docs', [{ kind: 'file', path: process.argv[3] }]);",
        "const hits = await engine.search('docs', 'puffins burrow');",
        'await engine.close();',
        'console.log(JSON.stringify({ results, hits }));',
      ].join('\n'),
    );
    const dataDir = await tempFolder('data');
    const sources = await tempFolder('sources');
    await writeFiles(sources, { 'birds.md': '# Seabirds\n\nPuffins burrow into the cliff top.' });

    const { stdout } = await run(process.execPath, [script, dataDir, join(sources, 'birds.md')]);

    const { results, hits } = JSON.parse(stdout) as {
      results: unknown[];
      hits: Array<{ source: { title: string } }>;
    };
    expect(results).toMatchObject([{ status: 'indexed', title: 'Seabirds' }]);
    expect(hits.map((hit) => hit.source.title)).toEqual(['Seabirds']);
  });
});
