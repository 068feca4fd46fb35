import { useState, type FormEvent, type ReactElement } from 'react';
import type { SearchHit } from '../../../shared/agent.js';
import { Icon } from '../components/icons.js';
import { messageOf, useWindow } from '../context.js';
import { formatScore } from '../lib/format.js';
import { highlightParts, queryTerms } from '../lib/highlight.js';
import { placeOf, targetOfHit } from '../lib/source-target.js';

/** Searching a namespace: the best passages, their document, page and score, terms highlighted. */
export function SearchView({ namespace }: { namespace: string }): ReactElement {
  const { client, openSource } = useWindow();
  const [query, setQuery] = useState('');
  const [searched, setSearched] = useState<{ query: string; hits: SearchHit[] }>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const text = query.trim();
    if (!text) return;
    setBusy(true);
    try {
      const answer = await client.search({ query: text, namespace, maxResults: 10 });
      setSearched({ query: text, hits: answer.results });
      setError(undefined);
    } catch (failure) {
      setError(messageOf(failure));
    }
    setBusy(false);
  };
  const terms = searched ? queryTerms(searched.query) : [];

  return (
    <div className="search">
      <form className="search-form" role="search" onSubmit={(event) => void submit(event)}>
        <label className="visually-hidden" htmlFor="search-input">
          Search {namespace}
        </label>
        <Icon name="search" />
        <input
          id="search-input"
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder={`Search the documents in ${namespace}`}
          autoFocus
        />
        <button type="submit" className="button primary" disabled={busy || !query.trim()}>
          {busy ? 'Searching…' : 'Search'}
        </button>
      </form>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!searched ? (
        <p className="muted centered">
          Words from your question find the passages that contain them, best first.
        </p>
      ) : searched.hits.length === 0 ? (
        <div className="empty-state">
          <h2>Nothing matched “{searched.query}”</h2>
          <p>Try other words, or add the documents that should contain the answer.</p>
        </div>
      ) : (
        <>
          <p className="muted" aria-live="polite">
            {searched.hits.length} {searched.hits.length === 1 ? 'passage' : 'passages'} for “{searched.query}
            ”
          </p>
          <ol className="results">
            {searched.hits.map((hit, index) => {
              const place = placeOf(hit.source);
              return (
                <li key={`${hit.source.documentId}-${index}`} className="card result">
                  <div className="result-head">
                    <button
                      type="button"
                      className="link-button result-title"
                      onClick={() => openSource(targetOfHit(namespace, hit))}
                    >
                      {hit.source.title}
                    </button>
                    {place ? <span className="pill">{place}</span> : null}
                    <span className="score" title="Relevance score">
                      score {formatScore(hit.score)}
                    </span>
                  </div>
                  <p className="result-text">
                    {highlightParts(hit.text, terms).map((part, i) =>
                      part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                    )}
                  </p>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}
