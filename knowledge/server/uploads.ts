import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { IngestedSource, SearchHit } from '../../shared/agent.js';
import type { KnowledgeBackend } from './backend.js';

/** A file name safe to keep on disk: no folders, no control or shell characters, bounded length. */
export function safeFileName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[^\p{L}\p{N}._ -]/gu, '_')
    .replace(/^\.+/, '')
    .slice(-120);
  return cleaned || 'upload';
}

/**
 * Files of one upload, named apart: a dropped folder can hold several files of the same name
 * (two `README.md`), and a browser sends only the base name. Later ones become `README (2).md`.
 */
function distinctFileNames(files: readonly File[]): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const name = safeFileName(file.name);
    const dot = name.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let candidate = name;
    for (let n = 2; taken.has(candidate); n++) candidate = `${stem} (${n})${extension}`;
    taken.add(candidate);
    return candidate;
  });
}

/**
 * Saves uploaded files under `<uploadDir>/<namespace>/`, returning their paths. A file uploaded
 * again under the same name replaces the earlier one, so its document is re-indexed.
 */
export async function saveUploads(
  uploadDir: string,
  namespace: string,
  files: readonly File[],
): Promise<string[]> {
  const folder = join(uploadDir, namespace);
  await mkdir(folder, { recursive: true });
  const real = await realpath(folder);
  const names = distinctFileNames(files);
  return Promise.all(
    files.map(async (file, i) => {
      const path = join(real, names[i] as string);
      await writeFile(path, new Uint8Array(await file.arrayBuffer()));
      return path;
    }),
  );
}

/** Names a path under the upload folder `uploads/<namespace>/<file>`; other paths are returned as given. */
export function publicUploadPath(uploadDir: string): (path: string) => Promise<string> {
  let realUploadDir: Promise<string> | undefined;
  return async (path) => {
    realUploadDir ??= realpath(uploadDir).catch(() => uploadDir);
    for (const root of [uploadDir, await realUploadDir]) {
      if (path.startsWith(root + sep)) return ['uploads', ...relative(root, path).split(sep)].join('/');
    }
    return path;
  };
}

/**
 * The backend as the API shows it: uploaded files are named `uploads/<namespace>/<file>` instead of
 * by their absolute path on the server.
 */
export function withPublicUploadPaths(backend: KnowledgeBackend, uploadDir: string): KnowledgeBackend {
  const hide = publicUploadPath(uploadDir);
  return {
    async ingest(namespace, sources, options = {}) {
      const { onProgress } = options;
      // Progress is reported in order, so each event's label is hidden before the next one is sent.
      let reported = Promise.resolve();
      const results = await backend.ingest(
        namespace,
        sources,
        onProgress
          ? {
              onProgress: (event) => {
                reported = reported.then(async () =>
                  onProgress({ ...event, source: await hide(event.source) }),
                );
              },
            }
          : {},
      );
      await reported;
      return Promise.all(
        results.map(async (result): Promise<IngestedSource> => ({
          ...result,
          source: await hide(result.source),
        })),
      );
    },
    async search(namespace, query, options) {
      const hits = await backend.search(namespace, query, options);
      return Promise.all(
        hits.map(async (hit): Promise<SearchHit> =>
          hit.source.path ? { ...hit, source: { ...hit.source, path: await hide(hit.source.path) } } : hit,
        ),
      );
    },
    async documents(namespace) {
      const documents = await backend.documents(namespace);
      return Promise.all(
        documents.map(async (document) => ({
          ...document,
          source: await hide(document.source),
          ...(document.path ? { path: await hide(document.path) } : {}),
        })),
      );
    },
    namespaces: () => backend.namespaces(),
    documentText: (namespace, documentId) => backend.documentText(namespace, documentId),
    removeDocument: (namespace, documentId) => backend.removeDocument(namespace, documentId),
    deleteNamespace: (namespace) => backend.deleteNamespace(namespace),
  };
}
