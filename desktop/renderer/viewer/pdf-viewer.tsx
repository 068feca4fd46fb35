import { useEffect, useRef, useState, type ReactElement } from 'react';
import type * as PdfJsModule from 'pdfjs-dist';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { Icon } from '../components/icons.js';
import { messageOf, useWindow } from '../context.js';
import type { SourceTarget } from '../lib/source-target.js';
import { isPartOfPassage } from './passage-match.js';

type PdfJs = typeof PdfJsModule;

let pdfjsLoading: Promise<PdfJs> | undefined;

/** pdf.js, loaded the first time a PDF is opened; its worker comes from this origin, eval stays off. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjsLoading ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdf.worker.js', document.baseURI).href;
    return pdfjs;
  });
  return pdfjsLoading;
}

const MAX_SCALE = 1.75;

/** A PDF at the cited page, the passage highlighted; pages turn with the buttons or the arrow keys. */
export function PdfViewer({ target }: { target: SourceTarget }): ReactElement {
  const { client } = useWindow();
  const [pdf, setPdf] = useState<{ pdfjs: PdfJs; document: PDFDocumentProxy }>();
  const [page, setPage] = useState(target.page ?? 1);
  const [error, setError] = useState<string>();
  const [rendered, setRendered] = useState<number>();
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const textLayer = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let document: PDFDocumentProxy | undefined;
    let cancelled = false;
    void (async () => {
      try {
        const [pdfjs, bytes] = await Promise.all([
          loadPdfJs(),
          client.documentFile(target.namespace, target.documentId),
        ]);
        document = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, enableXfa: false }).promise;
        if (cancelled) await document.destroy();
        else setPdf({ pdfjs, document });
      } catch (failure) {
        if (!cancelled) setError(messageOf(failure));
      }
    })();
    return () => {
      cancelled = true;
      void document?.destroy();
    };
  }, [client, target.namespace, target.documentId]);

  const pages = pdf?.document.numPages ?? 0;

  useEffect(() => {
    if (!pdf || !canvas.current || !textLayer.current || !frame.current) return;
    const { pdfjs, document } = pdf;
    const canvasElement = canvas.current;
    const layerElement = textLayer.current;
    const available = frame.current.clientWidth - 48;
    let task: RenderTask | undefined;
    let layer: InstanceType<PdfJs['TextLayer']> | undefined;
    let cancelled = false;
    void (async () => {
      const pdfPage = await document.getPage(Math.min(Math.max(page, 1), document.numPages));
      const scale = Math.min(MAX_SCALE, available / pdfPage.getViewport({ scale: 1 }).width);
      const viewport = pdfPage.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      canvasElement.width = Math.floor(viewport.width * ratio);
      canvasElement.height = Math.floor(viewport.height * ratio);
      canvasElement.style.width = `${Math.floor(viewport.width)}px`;
      canvasElement.style.height = `${Math.floor(viewport.height)}px`;
      const context = canvasElement.getContext('2d');
      if (!context) throw new Error('this window cannot draw the page');
      task = pdfPage.render({
        canvas: canvasElement,
        canvasContext: context,
        viewport,
        ...(ratio === 1 ? {} : { transform: [ratio, 0, 0, ratio, 0, 0] }),
      });
      await task.promise;
      if (cancelled) return;
      layerElement.replaceChildren();
      layerElement.style.setProperty('--scale-factor', String(scale));
      layerElement.style.setProperty('--total-scale-factor', String(scale));
      layer = new pdfjs.TextLayer({
        textContentSource: pdfPage.streamTextContent(),
        container: layerElement,
        viewport,
      });
      await layer.render();
      if (cancelled) return;
      const cited =
        page === target.page && target.passage
          ? layer.textDivs.filter((div) => isPartOfPassage(div.textContent ?? '', target.passage))
          : [];
      for (const div of cited) div.classList.add('cited');
      cited[0]?.scrollIntoView({ block: 'center' });
      setRendered(page);
    })().catch((failure: unknown) => {
      if (!cancelled && !(failure instanceof pdfjs.RenderingCancelledException)) setError(messageOf(failure));
    });
    return () => {
      cancelled = true;
      task?.cancel();
      layer?.cancel();
    };
  }, [pdf, page, target.page, target.passage]);

  useEffect(() => {
    const turn = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      if (event.key === 'ArrowRight' || event.key === 'PageDown')
        setPage((current) => Math.min(current + 1, pages || current));
      if (event.key === 'ArrowLeft' || event.key === 'PageUp') setPage((current) => Math.max(current - 1, 1));
    };
    window.addEventListener('keydown', turn);
    return () => window.removeEventListener('keydown', turn);
  }, [pages]);

  if (error) {
    return (
      <p className="form-error viewer-error" role="alert">
        The PDF cannot be shown: {error}
      </p>
    );
  }
  return (
    <div className="pdf-viewer">
      <div className="pager" role="group" aria-label="Pages">
        <button
          type="button"
          className="icon-button"
          onClick={() => setPage(page - 1)}
          disabled={page <= 1}
          aria-label="Previous page"
        >
          <Icon name="left" />
        </button>
        <span className="page-count" aria-live="polite" data-rendered-page={rendered}>
          {pages ? `Page ${page} of ${pages}` : 'Opening…'}
        </span>
        <button
          type="button"
          className="icon-button"
          onClick={() => setPage(page + 1)}
          disabled={!pages || page >= pages}
          aria-label="Next page"
        >
          <Icon name="right" />
        </button>
        {target.page !== undefined && page !== target.page ? (
          <button type="button" className="link-button" onClick={() => setPage(target.page ?? 1)}>
            Back to the cited page {target.page}
          </button>
        ) : null}
      </div>
      <div className="pdf-frame" ref={frame}>
        <div className="pdf-page">
          <canvas ref={canvas} />
          <div className="textLayer" ref={textLayer} />
        </div>
      </div>
    </div>
  );
}
