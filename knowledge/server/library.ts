import { readFile } from 'node:fs/promises';
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import {
  CreateNamespaceRequest,
  type DocumentList,
  type DocumentRemoved,
  type DocumentSummary,
  type DocumentText,
  type IngestResponse,
  type NamespaceDeleted,
  type NamespaceList,
} from '../../shared/agent.js';
import type { KnowledgeDocument } from '../engine.js';
import type { SourceInput } from '../types.js';
import type { KnowledgeBackend } from './backend.js';
import { parseWith, readJson, RequestProblem } from '../../shared/server-kit/index.js';
import { DocumentPath, libraryRouteDefinitions as routes, mountRoute, NamespacePath } from './openapi.js';
import { sanitizeMessage } from './sanitize.js';
import { outsideRoots } from './tools.js';

export interface LibraryOptions {
  /** The backend as the API shows it (upload paths hidden). */
  backend: KnowledgeBackend;
  /** The engine itself, for the real path of a document's original file. */
  files: KnowledgeBackend;
  readableRoots: readonly string[];
  secrets: readonly string[];
  /** Applied to re-ingest, which parses a source again like an ingest does. */
  ingestGuards: readonly [MiddlewareHandler, MiddlewareHandler];
}

/**
 * The knowledge library under `/api/namespaces`: what the knowledge app window needs besides the
 * Mastra routes — namespaces with counts, create, delete; documents, remove, re-ingest; a
 * document's stored text and a PDF's original bytes, to open a citation at its page.
 */
export function libraryRoutes(options: LibraryOptions): OpenAPIHono {
  const { backend, files, readableRoots, secrets } = options;
  const app = new OpenAPIHono();
  const namespaceOf = (c: Context): string => parseWith(NamespacePath, c.req.param()).namespace;
  const documentOf = (c: Context) => parseWith(DocumentPath, c.req.param());

  const requireNamespace = async (namespace: string): Promise<void> => {
    const names = (await backend.namespaces()).map((summary) => summary.name);
    if (!names.includes(namespace)) throw new RequestProblem(404, `namespace "${namespace}" not found`);
  };
  const findDocument = async (
    source: KnowledgeBackend,
    namespace: string,
    documentId: string,
  ): Promise<KnowledgeDocument> => {
    await requireNamespace(namespace);
    const document = (await source.documents(namespace)).find((entry) => entry.documentId === documentId);
    if (!document) throw new RequestProblem(404, `namespace "${namespace}" has no document ${documentId}`);
    return document;
  };

  mountRoute(app, routes.namespaces, async (c) => {
    const namespaces = (await backend.namespaces()).map((summary) =>
      summary.error ? { ...summary, error: sanitizeMessage(summary.error, secrets) } : summary,
    );
    return c.json({ namespaces } satisfies NamespaceList);
  });

  mountRoute(app, routes.createNamespace, async (c) => {
    const { name } = parseWith(CreateNamespaceRequest, await readJson(c, 'refuse'));
    if ((await backend.namespaces()).some((summary) => summary.name === name)) {
      throw new RequestProblem(409, `namespace "${name}" already exists`);
    }
    // Ingesting nothing opens the namespace for writing, which creates its folder.
    await backend.ingest(name, []);
    return c.json({ name, documents: 0, chunks: 0 }, 201);
  });

  mountRoute(app, routes.deleteNamespace, async (c) => {
    const namespace = namespaceOf(c);
    if (!(await backend.deleteNamespace(namespace)))
      throw new RequestProblem(404, `namespace "${namespace}" not found`);
    return c.json({ namespace, deleted: true } satisfies NamespaceDeleted);
  });

  mountRoute(app, routes.documents, async (c) => {
    const namespace = namespaceOf(c);
    await requireNamespace(namespace);
    const documents = (await backend.documents(namespace)).map((document): DocumentSummary => ({
      ...document,
      warnings: document.warnings.map((warning) => sanitizeMessage(warning, secrets)),
    }));
    return c.json({ namespace, documents } satisfies DocumentList);
  });

  mountRoute(app, routes.removeDocument, async (c) => {
    const { namespace, documentId } = documentOf(c);
    await findDocument(backend, namespace, documentId);
    await backend.removeDocument(namespace, documentId);
    return c.json({ namespace, documentId, removed: true } satisfies DocumentRemoved);
  });

  mountRoute(app, routes.reingestDocument, ...options.ingestGuards, async (c) => {
    const { namespace, documentId } = documentOf(c);
    const document = await findDocument(files, namespace, documentId);
    const input = await sourceOf(document, () => files.documentText(namespace, documentId));
    if (input.kind === 'file' && outsideRoots(input.path, readableRoots)) {
      throw new RequestProblem(403, 'the original file is outside the folders this agent may read');
    }
    // An unchanged source would be skipped: the document goes first, so it is parsed again.
    await files.removeDocument(namespace, documentId);
    const results = await backend.ingest(namespace, [input]);
    const response: IngestResponse = {
      namespace,
      results: results.map((result) =>
        result.error ? { ...result, error: sanitizeMessage(result.error, secrets) } : result,
      ),
    };
    return c.json(response);
  });

  mountRoute(app, routes.documentText, async (c) => {
    const { namespace, documentId } = documentOf(c);
    const document = await findDocument(backend, namespace, documentId);
    const text = await backend.documentText(namespace, documentId);
    return c.json({
      documentId,
      title: document.title,
      format: document.format,
      text,
    } satisfies DocumentText);
  });

  mountRoute(app, routes.documentFile, async (c) => {
    const { namespace, documentId } = documentOf(c);
    const document = await findDocument(files, namespace, documentId);
    if (document.format !== 'pdf' || !document.path) {
      throw new RequestProblem(404, 'only the original of a PDF file is served; read the text instead');
    }
    if (outsideRoots(document.path, readableRoots)) {
      throw new RequestProblem(403, 'the original file is outside the folders this agent may read');
    }
    const bytes = await readFile(document.path).catch(() => {
      throw new RequestProblem(404, 'the original file is gone; re-ingest it from where it is now');
    });
    return c.body(bytes, 200, {
      'content-type': 'application/pdf',
      'content-disposition': 'inline',
      'cache-control': 'no-store',
    });
  });

  return app;
}

/** What to parse again for a document: its file, its URL, or the text it was given. */
async function sourceOf(
  document: KnowledgeDocument,
  storedText: () => Promise<string>,
): Promise<SourceInput> {
  if (document.kind === 'file' && document.path) return { kind: 'file', path: document.path };
  if (document.kind === 'url' && document.url) return { kind: 'url', url: document.url };
  return { kind: 'text', text: await storedText(), title: document.title };
}
