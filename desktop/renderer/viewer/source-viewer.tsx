import type { ReactElement } from 'react';
import { Icon } from '../components/icons.js';
import { Modal } from '../components/modal.js';
import { useWindow } from '../context.js';
import { citedPlace, openingOf, type SourceTarget } from '../lib/source-target.js';
import { PdfViewer } from './pdf-viewer.js';
import { TextViewer } from './text-viewer.js';

/** A cited or found source, opened in the window: PDFs at their page, other documents at their heading. */
export function SourceViewer({ target, onClose }: { target: SourceTarget; onClose(): void }): ReactElement {
  const { bridge } = useWindow();
  return (
    <Modal title={target.title} description={citedPlace(target)} onClose={onClose} className="viewer">
      {bridge && target.path ? (
        <div className="viewer-tools">
          <button
            type="button"
            className="link-button"
            onClick={() => void bridge.revealFile(target.path ?? '')}
          >
            <Icon name="folder" size={14} /> Show in folder
          </button>
        </div>
      ) : null}
      <div className="viewer-body">
        {openingOf(target) === 'pdf' ? <PdfViewer target={target} /> : <TextViewer target={target} />}
      </div>
    </Modal>
  );
}
