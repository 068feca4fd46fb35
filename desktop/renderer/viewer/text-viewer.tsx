import { useEffect, useMemo, useRef, useState, type ReactElement } from 'react';
import type { DocumentText } from '../../../shared/agent.js';
import { messageOf, useWindow } from '../context.js';
import type { SourceTarget } from '../lib/source-target.js';
import { citedBlocks, textBlocks } from './text-blocks.js';

/** A Markdown, HTML or text document, scrolled to the cited heading with the passage highlighted. */
export function TextViewer({ target }: { target: SourceTarget }): ReactElement {
  const { client } = useWindow();
  const [document, setDocument] = useState<DocumentText>();
  const [error, setError] = useState<string>();
  const firstCited = useRef<HTMLElement | null>(null);

  useEffect(() => {
    let cancelled = false;
    client.documentText(target.namespace, target.documentId).then(
      (loaded) => !cancelled && setDocument(loaded),
      (failure: unknown) => !cancelled && setError(messageOf(failure)),
    );
    return () => {
      cancelled = true;
    };
  }, [client, target.namespace, target.documentId]);

  const blocks = useMemo(() => (document ? textBlocks(document.text) : []), [document]);
  const cited = useMemo(
    () => new Set(citedBlocks(blocks, target.passage, target.heading)),
    [blocks, target.passage, target.heading],
  );
  useEffect(() => {
    firstCited.current?.scrollIntoView({ block: 'center' });
  }, [blocks]);

  if (error) {
    return (
      <p className="form-error viewer-error" role="alert">
        The document cannot be shown: {error}
      </p>
    );
  }
  if (!document) return <p className="muted viewer-loading">Opening…</p>;
  const first = Math.min(...cited);
  return (
    <article className="text-document">
      {blocks.map((block, index) => {
        const ref =
          index === first ? (element: HTMLElement | null) => void (firstCited.current = element) : undefined;
        const className = cited.has(index) ? 'cited' : undefined;
        if (block.kind === 'heading') {
          const Heading = `h${Math.min(block.level + 1, 6)}` as 'h2';
          return (
            <Heading key={index} ref={ref} className={className}>
              {block.text}
            </Heading>
          );
        }
        return (
          <p key={index} ref={ref} className={className}>
            {block.text}
          </p>
        );
      })}
    </article>
  );
}
