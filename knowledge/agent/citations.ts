import { basename } from 'node:path';
import type { Citation, SearchHit } from '../../shared/agent.js';

const SNIPPET_CHARS = 300;

function snippetOf(text: string): string {
  const flat = text
    .replace(/^ {0,3}#{1,6}\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length <= SNIPPET_CHARS ? flat : `${flat.slice(0, SNIPPET_CHARS - 1).trimEnd()}…`;
}

/** The citation of a retrieved passage under number `n`. */
export function citationFor(hit: SearchHit, n: number): Citation {
  const { documentId, title, path, name, url, page, heading, headingPath } = hit.source;
  return {
    n,
    documentId,
    title,
    ...(path !== undefined ? { path } : {}),
    ...(name !== undefined ? { name } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(page !== undefined ? { page } : {}),
    ...(heading !== undefined ? { heading } : {}),
    ...(headingPath !== undefined ? { headingPath } : {}),
    snippet: snippetOf(hit.text),
    score: hit.score,
  };
}

/** `[1] Wing design, p. 3, https://…`: title (or file name), page, URL when there is one. */
function sourceLine(citation: Citation): string {
  const name =
    citation.title.trim() || (citation.path ? basename(citation.path) : citation.url) || 'untitled';
  const parts = [`[${citation.n}] ${name}`];
  if (citation.page !== undefined) parts.push(`p. ${citation.page}`);
  if (citation.url !== undefined) parts.push(citation.url);
  return parts.join(', ');
}

export function sourcesList(citations: readonly Citation[]): string {
  return ['Sources:', ...citations.map(sourceLine)].join('\n');
}

/** `[1]`, `[2, 3]` or `[2,3]`: the numbers a model cited. */
const CITATION_MARK = /\[(\d+(?:\s*,\s*\d+)*)\]/g;

export interface CheckedCitations {
  /** The answer with every citation of an unknown passage removed. */
  text: string;
  /** Numbers of the passages actually cited, in order of first citation. */
  cited: number[];
  removed: number[];
}

/**
 * Keeps only citations of passages 1..`passageCount`: a model that cites `[7]` when it was given
 * five passages points at nothing, so that mark goes (and `[2, 7]` becomes `[2]`).
 */
export function checkCitations(text: string, passageCount: number): CheckedCitations {
  const cited: number[] = [];
  const removed: number[] = [];
  const checked = text.replace(CITATION_MARK, (_mark, list: string) => {
    const kept: number[] = [];
    for (const n of list.split(',').map((item) => Number(item.trim()))) {
      if (n >= 1 && n <= passageCount) {
        kept.push(n);
        if (!cited.includes(n)) cited.push(n);
      } else removed.push(n);
    }
    return kept.length > 0 ? `[${kept.join(', ')}]` : '';
  });
  return {
    text: checked
      .replace(/[ \t]+([.,;:!?])/g, '$1')
      .replace(/[ \t]{2,}/g, ' ')
      .trim(),
    cited,
    removed,
  };
}
