import type { Citation, SearchHit } from '../../../shared/agent.js';

/** A place in a document to open: the cited page or heading, and the passage to highlight there. */
export interface SourceTarget {
  namespace: string;
  documentId: string;
  title: string;
  page?: number;
  heading?: string;
  path?: string;
  url?: string;
  passage: string;
}

export function targetOfCitation(namespace: string, citation: Citation): SourceTarget {
  const { n: _n, snippet, score: _score, ...source } = citation;
  return { namespace, ...source, passage: snippet };
}

export function targetOfHit(namespace: string, hit: SearchHit): SourceTarget {
  return { namespace, ...hit.source, passage: hit.text };
}

/**
 * How a source opens: a web page in the browser; a paged document (a PDF) in the PDF viewer at
 * its page; anything else as its text at the cited heading.
 */
export function openingOf(target: SourceTarget): 'browser' | 'pdf' | 'text' {
  if (target.url) return 'browser';
  if (target.page !== undefined || target.path?.toLowerCase().endsWith('.pdf')) return 'pdf';
  return 'text';
}

/** Where a citation is, in words: "page 3", "Limits", or nothing. */
export function placeOf(target: Pick<SourceTarget, 'page' | 'heading'>): string | undefined {
  if (target.page !== undefined) return `page ${target.page}`;
  return target.heading;
}

/** The viewer's subtitle: where the passage was cited, when it was opened from a citation. */
export function citedPlace(target: SourceTarget): string | undefined {
  if (!target.passage) return undefined;
  if (target.page !== undefined) return `Cited on page ${target.page}`;
  return target.heading ? `Cited under “${target.heading}”` : undefined;
}
