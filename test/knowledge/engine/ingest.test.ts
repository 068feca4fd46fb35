import { access, mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IngestEvent } from '../../../knowledge/index.js';
import { PAGE_SEPARATOR } from '../../../knowledge/types.js';
import { startRecordingServer } from '../../support/http.js';
import { writePdf } from '../support/pdf.js';
import { readCommittedManifest, useEngines, useSharedEngine, useTempFolders, writeFiles } from './support.js';

const tempFolder = useTempFolders();
const openEngine = useEngines();
const shared = useSharedEngine();

async function setup(): Promise<{ dataDir: string; sources: string }> {
  return { dataDir: await tempFolder('data'), sources: await tempFolder('sources') };
}

/** The shared engine, a namespace of its own and a folder of sources. */
async function sharedSetup(): Promise<ReturnType<typeof shared> & { sources: string }> {
  return { ...shared(), sources: await tempFolder('sources') };
}

describe('ingesting sources', () => {
  it('indexes raw text and finds it by its words', async () => {
    const { engine, namespace } = await sharedSetup();
    const text = 'Moss grows on the north side of the old granary.';
    const [result] = await engine.ingest(namespace, [{ kind: 'text', text, title: 'Granary' }]);
    expect(result).toMatchObject({ status: 'indexed', title: 'Granary', chunks: 1, source: 'text: Granary' });
    const [hit] = await engine.search(namespace, 'granary moss');
    expect(hit).toMatchObject({ text: expect.stringContaining('north side'), source: { title: 'Granary' } });
    expect(hit?.source.documentId).toBe(result?.documentId);
  });

  it('cites the path, heading and heading path of a Markdown passage', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    await writeFiles(sources, {
      'guide.md': '# Beekeeping\n\n## Winter\n\nFeed the colony fondant when frost arrives.\n',
    });
    await engine.ingest(namespace, [{ kind: 'file', path: join(sources, 'guide.md') }]);
    const [hit] = await engine.search(namespace, 'fondant frost');
    expect(hit?.source).toMatchObject({
      title: 'Beekeeping',
      path: join(sources, 'guide.md'),
      heading: 'Winter',
      headingPath: ['Beekeeping', 'Winter'],
    });
  });

  it('names a hit by its path under the namespace folder, else by its file name, on every search', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    const inside = join(engine.namespaceFolder(namespace), 'notes', 'hives.md');
    await mkdir(join(engine.namespaceFolder(namespace), 'notes'), { recursive: true });
    await writeFile(inside, '# Hives\n\nPropolis seals the cracks of the hive.\n');
    await writeFiles(sources, { 'swarms.md': '# Swarms\n\nA swarm clusters on a branch before moving.\n' });
    await engine.ingest(namespace, [
      { kind: 'file', path: inside },
      { kind: 'file', path: join(sources, 'swarms.md') },
    ]);
    for (let search = 0; search < 2; search++) {
      const [propolis] = await engine.search(namespace, 'propolis cracks');
      const [swarm] = await engine.search(namespace, 'swarm branch');
      expect(propolis?.source.name).toBe('notes/hives.md');
      expect(swarm?.source.name).toBe('swarms.md');
    }
  });

  it('cites the page of a PDF passage', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    const pdf = await writePdf(
      join(sources, 'manual.pdf'),
      [
        { lines: ['Unpacking the telescope tripod.'] },
        { lines: ['Collimation aligns the primary mirror.'] },
        { lines: ['Storing the eyepieces in a dry case.'] },
      ],
      { title: 'Telescope manual' },
    );
    const [result] = await engine.ingest(namespace, [{ kind: 'file', path: pdf }]);
    expect(result).toMatchObject({ status: 'indexed', title: 'Telescope manual', pages: 3 });
    const [hit] = await engine.search(namespace, 'collimation mirror');
    expect(hit?.source).toMatchObject({ title: 'Telescope manual', page: 2, path: pdf });
  });

  it('gives the best passage of each page of a PDF, as of separate documents', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    const pdf = await writePdf(join(sources, 'manual.pdf'), [
      { lines: ['Collimation aligns the primary mirror of the telescope.'] },
      { lines: ['Unpacking the tripod and its case.'] },
      { lines: ['Check the collimation again after moving the telescope.'] },
    ]);
    await engine.ingest(namespace, [{ kind: 'file', path: pdf }]);
    const hits = await engine.search(namespace, 'telescope collimation', { limit: 5 });
    expect(hits.map((hit) => hit.source.page).sort()).toEqual([1, 3]);
  });

  it('indexes a URL, cites it, and finds it unchanged when its content is the same', async () => {
    const { dataDir } = await setup();
    let body =
      '<html><head><title>Tide tables</title></head><body><p>High water at Dover is at noon.</p></body></html>';
    const server = await startRecordingServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
    try {
      // The local test server is a private address: allowed here as a person would at the CLI.
      const engine = await openEngine({ dataDir, allowPrivateNetwork: true });
      const url = `${server.url}/tides#today`;
      const [first] = await engine.ingest('web', [{ kind: 'url', url }]);
      expect(first).toMatchObject({ status: 'indexed', title: 'Tide tables', source: `${server.url}/tides` });
      const [hit] = await engine.search('web', 'high water dover');
      expect(hit?.source).toMatchObject({ title: 'Tide tables', url: `${server.url}/tides` });
      const [again] = await engine.ingest('web', [{ kind: 'url', url }]);
      expect(again).toMatchObject({ status: 'unchanged', documentId: first?.documentId });
      body =
        '<html><head><title>Tide tables</title></head><body><p>Low water at Dover is at six.</p></body></html>';
      const [changed] = await engine.ingest('web', [{ kind: 'url', url }]);
      expect(changed).toMatchObject({ status: 'indexed', documentId: first?.documentId });
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('reads folders recursively and leaves out hidden folders and unsupported files', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    await writeFiles(sources, {
      'a.md': '# A\n\nAlpha text.',
      'nested/deeper/b.md': '# B\n\nBeta text.',
      '.git/c.md': '# C\n\nHidden text.',
      'image.png': 'not a document',
    });
    const results = await engine.ingest(namespace, [{ kind: 'file', path: sources }]);
    expect(results.map((result) => result.source)).toEqual([
      join(sources, 'a.md'),
      join(sources, 'nested/deeper/b.md'),
    ]);
    expect(results.every((result) => result.status === 'indexed')).toBe(true);
  });

  it('stores each source as a normalised document file with a manifest entry', async () => {
    const { engine, dataDir, namespace, sources } = await sharedSetup();
    const pdf = await writePdf(join(sources, 'two.pdf'), [
      { lines: ['First page.'] },
      { lines: ['Second page.'] },
    ]);
    const [result] = await engine.ingest(namespace, [{ kind: 'file', path: pdf }]);
    const manifest = await readCommittedManifest(dataDir, namespace);
    expect(manifest.documents).toEqual([
      expect.objectContaining({
        documentId: result?.documentId,
        source: pdf,
        kind: 'file',
        path: pdf,
        format: 'pdf',
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        size: (await readFile(pdf)).byteLength,
        pageNumbers: [1, 2],
        chunks: result?.chunks,
        ingestedAt: expect.any(String),
      }),
    ]);
    const stored = await readFile(
      join(
        dataDir,
        'knowledge',
        namespace,
        '.parley',
        'documents',
        manifest.documents[0]?.documentFile ?? '',
      ),
      'utf8',
    );
    expect(stored.split(PAGE_SEPARATOR).map((page) => page.trim())).toEqual(['First page.', 'Second page.']);
    expect(await engine.documentText(namespace, result?.documentId ?? '')).toBe(stored);
  });

  it('reports each source queued, its pages parsed, then indexed', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    const pdf = await writePdf(join(sources, 'three.pdf'), [
      { lines: ['One.'] },
      { lines: ['Two.'] },
      { lines: ['Three.'] },
    ]);
    const events: IngestEvent[] = [];
    await engine.ingest(namespace, [{ kind: 'file', path: pdf }], {
      onProgress: (event) => events.push(event),
    });
    expect(events[0]).toEqual({ type: 'queued', source: pdf });
    expect(events).toContainEqual({ type: 'parsing', source: pdf, page: 3, pages: 3 });
    expect(events.at(-1)).toMatchObject({ type: 'indexed', source: pdf, pages: 3 });
  });

  it('fails a source with its reason and still indexes the others', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    await writeFiles(sources, { 'good.md': '# Good\n\nUseful words.', 'broken.pdf': 'this is not a PDF' });
    const events: IngestEvent[] = [];
    const results = await engine.ingest(
      namespace,
      [
        { kind: 'file', path: join(sources, 'missing.md') },
        { kind: 'file', path: join(sources, 'broken.pdf') },
        { kind: 'file', path: join(sources, 'good.md') },
      ],
      { onProgress: (event) => events.push(event) },
    );
    expect(results).toEqual([
      { source: join(sources, 'missing.md'), status: 'failed', error: 'no such file or folder' },
      expect.objectContaining({
        source: join(sources, 'broken.pdf'),
        status: 'failed',
        error: expect.any(String),
      }),
      expect.objectContaining({ source: join(sources, 'good.md'), status: 'indexed' }),
    ]);
    expect(events).toContainEqual({
      type: 'failed',
      source: join(sources, 'missing.md'),
      error: 'no such file or folder',
    });
    expect(await engine.documents(namespace)).toHaveLength(1);
  });

  it('refuses files outside the ingest roots', async () => {
    const { dataDir, sources } = await setup();
    const allowed = await tempFolder('allowed');
    await writeFiles(sources, { 'secret.md': '# Secret\n\nDo not read.' });
    await writeFiles(allowed, { 'open.md': '# Open\n\nFine to read.' });
    const engine = await openEngine({ dataDir, ingestRoots: [allowed] });
    const results = await engine.ingest('docs', [
      { kind: 'file', path: join(sources, 'secret.md') },
      { kind: 'file', path: join(allowed, 'open.md') },
    ]);
    expect(results.map((result) => [result.status, result.error])).toEqual([
      ['failed', 'outside the folders this agent may read'],
      ['indexed', undefined],
    ]);
  });

  it('refuses an invalid namespace without creating anything', async () => {
    const { dataDir } = await setup();
    const engine = await openEngine({ dataDir });
    await expect(engine.ingest('../escape', [{ kind: 'text', text: 'x' }])).rejects.toMatchObject({
      kind: 'invalid',
    });
    await expect(engine.search('Docs', 'x')).rejects.toThrow(/invalid namespace "Docs"/);
    await expect(access(join(dataDir, 'escape'))).rejects.toThrow();
    await expect(access(join(dataDir, 'knowledge'))).rejects.toThrow();
  });
});

describe('a namespace that was never written', () => {
  it('reads as empty and is not created by reading it', async () => {
    const { dataDir } = await setup();
    const engine = await openEngine({ dataDir });
    expect(await engine.search('ghost', 'anything')).toEqual([]);
    expect(await engine.documents('ghost')).toEqual([]);
    expect(await engine.removeDocument('ghost', 'no-such-id')).toBe(false);
    await expect(engine.documentText('ghost', 'no-such-id')).rejects.toMatchObject({ kind: 'not-found' });
    expect(await engine.namespaces()).toEqual([]);
    await expect(access(join(dataDir, 'knowledge', 'ghost'))).rejects.toThrow();
  });
});

describe('re-ingesting', () => {
  it('treats an unchanged source as a no-op that writes nothing', async () => {
    const { engine, dataDir, namespace, sources } = await sharedSetup();
    await writeFiles(sources, { 'a.md': '# A\n\nApples.', 'b.md': '# B\n\nBananas.' });
    const inputs = [{ kind: 'file', path: sources } as const, { kind: 'text', text: 'Cherries.' } as const];
    const first = await engine.ingest(namespace, inputs);
    const before = await readCommittedManifest(dataDir, namespace);
    const again = await engine.ingest(namespace, inputs);
    expect(again.map((result) => result.status)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect(again.map((result) => result.documentId)).toEqual(first.map((result) => result.documentId));
    expect(await readCommittedManifest(dataDir, namespace)).toEqual(before);
  });

  it('recognises a file whose time changed but whose bytes did not', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    await writeFiles(sources, { 'a.md': '# A\n\nApples.' });
    await engine.ingest(namespace, [{ kind: 'file', path: join(sources, 'a.md') }]);
    const later = new Date(Date.now() + 60_000);
    await utimes(join(sources, 'a.md'), later, later);
    const [result] = await engine.ingest(namespace, [{ kind: 'file', path: join(sources, 'a.md') }]);
    expect(result?.status).toBe('unchanged');
  });

  it('replaces the chunks of a changed source', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    const file = join(sources, 'a.md');
    await writeFile(file, '# Orchard\n\nThe pear trees blossom in April.');
    const [first] = await engine.ingest(namespace, [{ kind: 'file', path: file }]);
    await writeFile(file, '# Orchard\n\nThe plum trees were planted in 1921.');
    const [second] = await engine.ingest(namespace, [{ kind: 'file', path: file }]);
    expect(second).toMatchObject({ status: 'indexed', documentId: first?.documentId });
    expect(await engine.search(namespace, 'pear blossom')).toEqual([]);
    expect((await engine.search(namespace, 'plum planted')).map((hit) => hit.source.documentId)).toEqual([
      first?.documentId,
    ]);
    expect(await engine.documents(namespace)).toHaveLength(1);
  });

  it('removes the documents of files that disappeared from a re-ingested folder', async () => {
    const { engine, namespace, sources } = await sharedSetup();
    await writeFiles(sources, { 'keep.md': '# Keep\n\nKestrels.', 'sub/gone.md': '# Gone\n\nGannets.' });
    await engine.ingest(namespace, [{ kind: 'file', path: sources }]);
    await rm(join(sources, 'sub'), { recursive: true });
    const events: IngestEvent[] = [];
    await engine.ingest(namespace, [{ kind: 'file', path: sources }], {
      onProgress: (event) => events.push(event),
    });
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'removed', source: join(sources, 'sub/gone.md') }),
    );
    expect((await engine.documents(namespace)).map((doc) => doc.title)).toEqual(['Keep']);
    expect(await engine.search(namespace, 'gannets')).toEqual([]);
  });
});

describe('removing', () => {
  it('removes a document with its chunks and its stored file', async () => {
    const { engine, dataDir, namespace } = await sharedSetup();
    const [kept, removed] = await engine.ingest(namespace, [
      { kind: 'text', text: 'Otters hold hands while sleeping.', title: 'Otters' },
      { kind: 'text', text: 'Otters use stones as tools.', title: 'Tools' },
    ]);
    expect(await engine.removeDocument(namespace, removed?.documentId ?? '')).toBe(true);
    expect((await engine.search(namespace, 'otters')).map((hit) => hit.source.title)).toEqual(['Otters']);
    const manifest = await readCommittedManifest(dataDir, namespace);
    expect(manifest.documents.map((entry) => entry.documentId)).toEqual([kept?.documentId]);
    expect(await readdir(join(dataDir, 'knowledge', namespace, '.parley', 'documents'))).toEqual([
      manifest.documents[0]?.documentFile,
    ]);
    expect(await engine.removeDocument(namespace, removed?.documentId ?? '')).toBe(false);
  });

  it('lists namespaces with their document and chunk counts', async () => {
    const { dataDir } = await setup();
    const engine = await openEngine({ dataDir });
    await engine.ingest('alpha', [
      { kind: 'text', text: 'One.' },
      { kind: 'text', text: 'Two.' },
    ]);
    await engine.ingest('beta', [{ kind: 'text', text: 'Three.' }]);
    await mkdir(join(dataDir, 'knowledge', 'Not A Namespace'));
    expect(await engine.namespaces()).toEqual([
      { name: 'alpha', documents: 2, chunks: 2 },
      { name: 'beta', documents: 1, chunks: 1 },
    ]);
  });

  it('deletes a namespace folder and everything in it', async () => {
    const { engine, dataDir, namespace } = await sharedSetup();
    await engine.ingest(namespace, [{ kind: 'text', text: 'One.' }]);
    expect(await engine.deleteNamespace(namespace)).toBe(true);
    await expect(access(join(dataDir, 'knowledge', namespace))).rejects.toThrow();
    expect((await engine.namespaces()).map((summary) => summary.name)).not.toContain(namespace);
    expect(await engine.deleteNamespace(namespace)).toBe(false);
  });
});

describe('Markdown dropped into a namespace folder', () => {
  it('is indexed when the namespace opens, and the engine files are not', async () => {
    const { dataDir } = await setup();
    const folder = join(dataDir, 'knowledge', 'docs');
    await writeFiles(folder, {
      'handbook.md': '# Handbook\n\nVacation requests go to the office manager.',
      'guides/setup.mdx': '# Setup\n\n<Note>Install the espresso machine first.</Note>',
      'notes.txt': 'Plain text files are not drop-ins.',
    });
    const engine = await openEngine({ dataDir });
    expect((await engine.search('docs', 'espresso machine')).map((hit) => hit.source.title)).toEqual([
      'Setup',
    ]);
    expect((await engine.documents('docs')).map((doc) => doc.title).sort()).toEqual(['Handbook', 'Setup']);
    await engine.ingest('docs', [{ kind: 'text', text: 'Stored text.' }]);
    await engine.close();
    const reopened = await openEngine({ dataDir });
    expect(await reopened.documents('docs')).toHaveLength(3);
  });

  it('is forgotten once deleted from the folder', async () => {
    const { dataDir } = await setup();
    const folder = join(dataDir, 'knowledge', 'docs');
    await writeFiles(folder, { 'handbook.md': '# Handbook\n\nVacation requests go to the office manager.' });
    const first = await openEngine({ dataDir });
    expect(await first.documents('docs')).toHaveLength(1);
    await first.close();
    await rm(join(folder, 'handbook.md'));
    const second = await openEngine({ dataDir });
    expect(await second.documents('docs')).toEqual([]);
  });

  it('is picked up while watching the namespace folders', async () => {
    const { dataDir } = await setup();
    const engine = await openEngine({ dataDir, watchNamespaceFolders: true, debounceMs: 50 });
    await engine.ingest('docs', [{ kind: 'text', text: 'Seed.' }]);
    await writeFiles(join(dataDir, 'knowledge', 'docs'), {
      'late.md': '# Late\n\nThe ferry leaves at noon.',
    });
    await expect.poll(() => engine.search('docs', 'ferry noon'), { timeout: 10_000 }).toHaveLength(1);
  });
});
