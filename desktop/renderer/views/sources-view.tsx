import { useEffect, useRef, useState, type DragEvent, type FormEvent, type ReactElement } from 'react';
import type { IngestRequest } from '../../../shared/agent.js';
import type { SettingsView, WatchedFolder } from '../../bridge.js';
import { Icon } from '../components/icons.js';
import { messageOf, useWindow } from '../context.js';
import { droppedFiles } from '../lib/dropped-files.js';
import { INGESTIBLE_EXTENSIONS, isIngestible } from '../lib/file-types.js';
import { plural } from '../lib/format.js';
import {
  applyProgress,
  applyResults,
  isFinished,
  progressFraction,
  statusText,
  type SourceProgress,
} from '../lib/ingest-progress.js';

interface Batch {
  id: number;
  label: string;
  state: 'sending' | 'running' | 'done' | 'failed';
  rows: SourceProgress[];
  error?: string;
}

/** Adding sources: files and folders by drop or dialog, a web page, pasted text; progress of each. */
export function SourcesView({ namespace }: { namespace: string }): ReactElement {
  const { client, refreshNamespaces, announce } = useWindow();
  const [batches, setBatches] = useState<Batch[]>([]);
  const nextId = useRef(1);

  const update = (id: number, change: (batch: Batch) => Batch) =>
    setBatches((current) => current.map((batch) => (batch.id === id ? change(batch) : batch)));

  const ingest = async (label: string, request: IngestRequest | FormData) => {
    const id = nextId.current++;
    setBatches((current) => [{ id, label, state: 'sending', rows: [] }, ...current]);
    try {
      const response = await client.ingestWithProgress(request, (event) =>
        update(id, (batch) => ({ ...batch, state: 'running', rows: applyProgress(batch.rows, event) })),
      );
      update(id, (batch) => ({ ...batch, state: 'done', rows: applyResults(batch.rows, response) }));
      const failed = response.results.filter((result) => result.status === 'failed').length;
      const ready = response.results.length - failed;
      if (!failed) announce(`${plural(ready, 'source')} ready.`);
      else if (ready) announce(`${plural(ready, 'source')} ready, ${failed} failed.`, 'error');
      else announce(`${failed === 1 ? 'The source' : `${failed} sources`} could not be added.`, 'error');
    } catch (error) {
      update(id, (batch) => ({ ...batch, state: 'failed', error: messageOf(error) }));
      announce(`Ingest failed: ${messageOf(error)}`, 'error');
    }
    await refreshNamespaces();
  };

  const uploadFiles = (files: File[], label: string) => {
    if (files.length === 0) {
      announce(`Nothing to add: the agent reads ${INGESTIBLE_EXTENSIONS.join(', ')} files.`, 'error');
      return;
    }
    const form = new FormData();
    form.set('namespace', namespace);
    for (const file of files) form.append('files', file, file.name);
    void ingest(label, form);
  };
  const describeFiles = (files: File[]) =>
    files.length === 1 ? (files[0]?.name ?? '1 file') : `${files.length} files`;

  return (
    <div className="sources">
      <DropZone
        onFiles={(files, fromFolder) => {
          const kept = fromFolder ? files.filter((file) => isIngestible(file.name)) : files;
          uploadFiles(kept, describeFiles(kept));
        }}
      />
      {batches.length > 0 ? (
        <section aria-labelledby="progress-heading">
          <h2 id="progress-heading" className="section-title">
            Progress
          </h2>
          <ol className="batches">
            {batches.map((batch) => (
              <BatchCard key={batch.id} batch={batch} />
            ))}
          </ol>
        </section>
      ) : null}
      <div className="source-forms">
        <UrlForm onSubmit={(url) => void ingest(url, { namespace, sources: [url] })} />
        <TextForm
          onSubmit={(title, text) =>
            void ingest(title || 'Pasted text', { namespace, texts: [{ ...(title ? { title } : {}), text }] })
          }
        />
      </div>
      <WatchedFolders namespace={namespace} />
    </div>
  );
}

function DropZone({ onFiles }: { onFiles(files: File[], fromFolder: boolean): void }): ReactElement {
  const [over, setOver] = useState(false);
  const filePicker = useRef<HTMLInputElement>(null);
  const folderPicker = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Not a React attribute: lets the picker choose a whole folder.
    folderPicker.current?.setAttribute('webkitdirectory', '');
  }, []);
  const drop = async (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const hasFolder = [...event.dataTransfer.items].some((item) => item.webkitGetAsEntry()?.isDirectory);
    onFiles(await droppedFiles(event.dataTransfer), hasFolder);
  };
  return (
    <div
      className={`drop-zone ${over ? 'over' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => void drop(event)}
    >
      <Icon name="upload" size={28} />
      <p className="drop-title">Drop files or folders here</p>
      <p className="muted">PDF, Markdown, HTML and text files. They are copied into the app’s data folder.</p>
      <div className="drop-actions">
        <button type="button" className="button primary" onClick={() => filePicker.current?.click()}>
          <Icon name="file" /> Choose files…
        </button>
        <button type="button" className="button" onClick={() => folderPicker.current?.click()}>
          <Icon name="folder" /> Choose a folder…
        </button>
      </div>
      <input
        ref={filePicker}
        type="file"
        multiple
        accept={INGESTIBLE_EXTENSIONS.join(',')}
        hidden
        aria-label="Files to add"
        data-testid="file-input"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])], false);
          event.target.value = '';
        }}
      />
      <input
        ref={folderPicker}
        type="file"
        hidden
        aria-label="Folder to add"
        onChange={(event) => {
          onFiles([...(event.target.files ?? [])], true);
          event.target.value = '';
        }}
      />
    </div>
  );
}

function UrlForm({ onSubmit }: { onSubmit(url: string): void }): ReactElement {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = url.trim();
    if (!/^https?:\/\/\S+$/i.test(trimmed)) {
      setError('Enter a web address starting with http:// or https://.');
      return;
    }
    onSubmit(trimmed);
    setUrl('');
  };
  return (
    <form className="card source-form" onSubmit={submit} noValidate aria-labelledby="url-heading">
      <h2 id="url-heading" className="card-title">
        <Icon name="link" /> Add a web page
      </h2>
      <label className="field">
        <span>Address</span>
        <input
          type="url"
          value={url}
          placeholder="https://example.com/guide"
          onChange={(event) => {
            setUrl(event.target.value);
            setError(undefined);
          }}
          aria-invalid={error ? true : undefined}
        />
      </label>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button">
        Add page
      </button>
    </form>
  );
}

function TextForm({ onSubmit }: { onSubmit(title: string, text: string): void }): ReactElement {
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    onSubmit(title.trim(), text);
    setTitle('');
    setText('');
  };
  return (
    <form className="card source-form" onSubmit={submit} aria-labelledby="text-heading">
      <h2 id="text-heading" className="card-title">
        <Icon name="text" /> Paste text
      </h2>
      <label className="field">
        <span>Title (optional)</span>
        <input value={title} onChange={(event) => setTitle(event.target.value)} placeholder="Meeting notes" />
      </label>
      <label className="field">
        <span>Text</span>
        <textarea value={text} onChange={(event) => setText(event.target.value)} rows={3} />
      </label>
      <button type="submit" className="button" disabled={!text.trim()}>
        Add text
      </button>
    </form>
  );
}

/** Folders the desktop app keeps in sync with this namespace (desktop only: it needs their paths). */
function WatchedFolders({ namespace }: { namespace: string }): ReactElement | null {
  const { bridge, announce } = useWindow();
  const [settings, setSettings] = useState<SettingsView>();
  useEffect(() => {
    void bridge?.settings().then(setSettings);
  }, [bridge]);
  if (!bridge || !settings) return null;
  const mine = settings.watchedFolders.filter((watched) => watched.namespace === namespace);
  const save = async (watchedFolders: WatchedFolder[]) => {
    try {
      setSettings(await bridge.saveSettings({ watchedFolders }));
    } catch (error) {
      announce(messageOf(error), 'error');
    }
  };
  const add = async () => {
    const folder = await bridge.pickFolder();
    if (folder) await save([...settings.watchedFolders, { folder, namespace }]);
  };
  return (
    <section className="card watched" aria-labelledby="watched-heading">
      <h2 id="watched-heading" className="card-title">
        <Icon name="eye" /> Watched folders
      </h2>
      <p className="muted">
        A watched folder is indexed now and again whenever a file in it is added, changed or deleted.
      </p>
      {mine.length > 0 ? (
        <ul className="watched-list">
          {mine.map((watched) => (
            <li key={watched.folder}>
              <code>{watched.folder}</code>
              <button
                type="button"
                className="link-button"
                onClick={() => void save(settings.watchedFolders.filter((entry) => entry !== watched))}
              >
                Stop watching
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="button" onClick={() => void add()}>
        <Icon name="folder" /> Watch a folder…
      </button>
    </section>
  );
}

function BatchCard({ batch }: { batch: Batch }): ReactElement {
  const finished = batch.rows.filter(isFinished).length;
  const heading =
    batch.state === 'sending'
      ? `Sending ${batch.label}…`
      : batch.state === 'failed'
        ? `${batch.label}: not added`
        : batch.state === 'running'
          ? `${batch.label}: ${finished} of ${batch.rows.length} done`
          : `${batch.label}: done`;
  return (
    <li className="card batch" aria-busy={batch.state === 'sending' || batch.state === 'running'}>
      <h3 className="batch-title">{heading}</h3>
      {batch.error ? <p className="form-error">{batch.error}</p> : null}
      {batch.state === 'sending' ? <div className="bar indeterminate" aria-hidden="true" /> : null}
      <ul className="source-rows">
        {batch.rows.map((row) => (
          <li key={row.source} className={`source-row ${row.state}`} data-state={row.state}>
            <span className="source-name" title={row.source}>
              {row.title && row.title !== row.name ? `${row.title} (${row.name})` : row.name}
            </span>
            <div
              className="bar"
              role="progressbar"
              aria-label={`${row.name} progress`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progressFraction(row) * 100)}
            >
              <span style={{ width: `${progressFraction(row) * 100}%` }} />
            </div>
            <span className="source-status">{statusText(row)}</span>
          </li>
        ))}
      </ul>
    </li>
  );
}
