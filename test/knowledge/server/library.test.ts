import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentList, DocumentText, IngestResponse, NamespaceList } from '../../../shared/agent.js';
import { buildPdf } from '../support/pdf.js';
import { postJson, startTestAgent, type TestAgent } from './support.js';

/** The knowledge library routes under /api/namespaces that the knowledge app window uses. */
describe('knowledge library over HTTP', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.close());

  const url = (path: string) => `${agent.apiUrl}/namespaces${path}`;
  const getJson = async (path: string) => {
    const response = await fetch(url(path));
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const remove = async (path: string) => {
    const response = await fetch(url(path), { method: 'DELETE' });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  const upload = async (namespace: string, files: File[]) => {
    const form = new FormData();
    form.set('namespace', namespace);
    for (const file of files) form.append('files', file);
    const response = await fetch(`${agent.apiUrl}/tools/ingestSources`, { method: 'POST', body: form });
    return IngestResponse.parse(await response.json());
  };
  const documentsOf = async (namespace: string) =>
    DocumentList.parse((await getJson(`/${namespace}/documents`)).body).documents;
  const fivePagePdf = async () =>
    new File(
      [
        new Uint8Array(
          await buildPdf(
            [1, 2, 3, 4, 5].map((page) => ({
              lines: [`Page ${page} of the rotor manual.`, `Topic ${page}.`],
            })),
            { title: 'Rotor manual' },
          ),
        ),
      ],
      'rotor.pdf',
      { type: 'application/pdf' },
    );

  it('lists namespaces with their document and chunk counts', async () => {
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'counted', sources: [agent.docsDir] });
    const { status, body } = await getJson('');
    expect(status).toBe(200);
    const counted = NamespaceList.parse(body).namespaces.find((summary) => summary.name === 'counted');
    expect(counted?.documents).toBe(3);
    expect(counted?.chunks).toBeGreaterThanOrEqual(3);
  });

  it('creates an empty namespace, which is then listed with zero counts', async () => {
    const created = await postJson(url(''), { name: 'fresh' });
    expect(created.status).toBe(201);
    const listed = NamespaceList.parse((await getJson('')).body).namespaces;
    expect(listed).toContainEqual({ name: 'fresh', documents: 0, chunks: 0 });
  });

  it('refuses to create a namespace that exists (409) or has a bad name (400 naming the field)', async () => {
    await postJson(url(''), { name: 'twice' });
    const again = await postJson(url(''), { name: 'twice' });
    expect(again).toMatchObject({ status: 409, body: { error: 'namespace "twice" already exists' } });
    const bad = await postJson(url(''), { name: 'Bad Name' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: expect.stringMatching(/^name: /) });
  });

  it('deletes a namespace with everything in it, and answers 404 for one that does not exist', async () => {
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'doomed', sources: [agent.docsDir] });
    expect(await remove('/doomed')).toEqual({ status: 200, body: { namespace: 'doomed', deleted: true } });
    const names = NamespaceList.parse((await getJson('')).body).namespaces.map((summary) => summary.name);
    expect(names).not.toContain('doomed');
    expect((await remove('/doomed')).status).toBe(404);
  });

  it('lists documents with title, type, size, pages, chunks and time, naming uploads without the server path', async () => {
    await upload('listed', [
      await fivePagePdf(),
      new File(['# Notes\n\nBlades are balanced.\n'], 'notes.md'),
    ]);
    const documents = await documentsOf('listed');
    const pdf = documents.find((document) => document.format === 'pdf');
    expect(pdf).toMatchObject({
      title: 'Rotor manual',
      pages: 5,
      source: 'uploads/listed/rotor.pdf',
      path: 'uploads/listed/rotor.pdf',
      kind: 'file',
    });
    expect(pdf?.size).toBeGreaterThan(0);
    expect(pdf?.chunks).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(pdf?.ingestedAt ?? ''))).toBe(false);
    expect(documents.find((document) => document.format === 'markdown')?.title).toBe('Notes');
    expect(JSON.stringify(documents)).not.toContain(agent.dataDir);
  });

  it('answers 404 for the documents of a namespace that does not exist', async () => {
    expect((await getJson('/nowhere/documents')).status).toBe(404);
  });

  it('removes one document and leaves the others', async () => {
    await upload('pruned', [
      new File(['# Keep\n\nThis one stays.\n'], 'keep.md'),
      new File(['# Drop\n\nThis one goes.\n'], 'drop.md'),
    ]);
    const drop = (await documentsOf('pruned')).find((document) => document.title === 'Drop');
    const removed = await remove(`/pruned/documents/${drop?.documentId}`);
    expect(removed.status).toBe(200);
    expect((await documentsOf('pruned')).map((document) => document.title)).toEqual(['Keep']);
    expect((await remove(`/pruned/documents/${drop?.documentId}`)).status).toBe(404);
  });

  it('re-ingests a document by parsing its source again, even when it did not change', async () => {
    await postJson(`${agent.apiUrl}/tools/ingestSources`, {
      namespace: 'again',
      files: [join(agent.docsDir, 'wing.md')],
    });
    const [wing] = await documentsOf('again');
    const response = await postJson(url(`/again/documents/${wing?.documentId}/reingest`), {});
    expect(response.status).toBe(200);
    expect(IngestResponse.parse(response.body).results).toEqual([
      expect.objectContaining({ status: 'indexed', title: 'Wing design' }),
    ]);
    expect(await documentsOf('again')).toHaveLength(1);
  });

  it('re-ingests a file that changed on disk with its new text', async () => {
    const path = join(agent.docsDir, 'changing.md');
    await writeFile(path, '# Before\n\nThe old text.\n');
    await postJson(`${agent.apiUrl}/tools/ingestSources`, { namespace: 'changed', files: [path] });
    const [before] = await documentsOf('changed');
    await writeFile(path, '# After\n\nThe new text.\n');
    await postJson(url(`/changed/documents/${before?.documentId}/reingest`), {});
    expect((await documentsOf('changed')).map((document) => document.title)).toEqual(['After']);
  });

  it("serves a document's stored text, with its title and format", async () => {
    await upload('texts', [new File(['# Rotor\n\n## Balance\n\nBlades are balanced.\n'], 'rotor.md')]);
    const [rotor] = await documentsOf('texts');
    const { status, body } = await getJson(`/texts/documents/${rotor?.documentId}/text`);
    expect(status).toBe(200);
    const text = DocumentText.parse(body);
    expect(text).toMatchObject({ title: 'Rotor', format: 'markdown' });
    expect(text.text).toContain('## Balance');
  });

  it("serves a PDF's original bytes, and no original for other formats", async () => {
    const pdf = await fivePagePdf();
    await upload('originals', [pdf, new File(['# Notes\n\nPlain.\n'], 'notes.md')]);
    const documents = await documentsOf('originals');
    const rotor = documents.find((document) => document.format === 'pdf');
    const response = await fetch(url(`/originals/documents/${rotor?.documentId}/file`));
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await pdf.arrayBuffer()));
    const notes = documents.find((document) => document.format === 'markdown');
    expect((await fetch(url(`/originals/documents/${notes?.documentId}/file`))).status).toBe(404);
  });

  it('refuses a namespace name in the path that breaks the naming rule', async () => {
    const response = await fetch(url('/..%2Fetc/documents'));
    expect(response.status).toBe(400);
  });
});
