import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactElement } from 'react';
import type { ChatTurn, Citation } from '../../../shared/agent.js';
import { Icon } from '../components/icons.js';
import { messageOf, useWindow } from '../context.js';
import { answerBody, answerParts } from '../lib/citations.js';
import { placeOf, targetOfCitation } from '../lib/source-target.js';

interface Exchange {
  id: number;
  question: string;
  answer: string;
  sources: Citation[];
  state: 'streaming' | 'done' | 'failed';
  error?: string;
}

/** Chatting with the agent about a namespace: answers stream in, every citation opens its source. */
export function ChatView({ namespace }: { namespace: string }): ReactElement {
  const { client } = useWindow();
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [question, setQuestion] = useState('');
  const nextId = useRef(1);
  const end = useRef<HTMLDivElement>(null);
  const busy = exchanges.some((exchange) => exchange.state === 'streaming');

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [exchanges]);

  const update = (id: number, change: (exchange: Exchange) => Exchange) =>
    setExchanges((current) => current.map((exchange) => (exchange.id === id ? change(exchange) : exchange)));

  const ask = async () => {
    const text = question.trim();
    if (!text || busy) return;
    const id = nextId.current++;
    // Earlier turns let the agent resolve follow-ups such as "and its limits?".
    const history: ChatTurn[] = exchanges
      .filter((exchange) => exchange.state === 'done')
      .flatMap((exchange) => [
        { role: 'user' as const, content: exchange.question },
        { role: 'assistant' as const, content: exchange.answer },
      ]);
    setExchanges((current) => [
      ...current,
      { id, question: text, answer: '', sources: [], state: 'streaming' },
    ]);
    setQuestion('');
    try {
      const answer = await client.stream(
        {
          messages: [...history, { role: 'user', content: text }],
          toolParams: { namespace },
          requireMention: false,
        },
        (piece) => update(id, (exchange) => ({ ...exchange, answer: exchange.answer + piece })),
      );
      update(id, (exchange) => ({
        ...exchange,
        answer: answer.text,
        sources: answer.sources,
        state: 'done',
      }));
    } catch (error) {
      update(id, (exchange) => ({ ...exchange, state: 'failed', error: messageOf(error) }));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void ask();
  };
  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void ask();
    }
  };

  return (
    <div className="chat">
      <div className="chat-log" aria-live="polite" aria-busy={busy}>
        {exchanges.length === 0 ? (
          <div className="empty-state">
            <Icon name="chat" size={32} />
            <h2>Ask about the documents in “{namespace}”</h2>
            <p>
              The agent answers only from passages it finds here and cites each one, so you can open the page
              it came from. If nothing fits, it says so.
            </p>
          </div>
        ) : (
          exchanges.map((exchange) => (
            <ExchangeView key={exchange.id} exchange={exchange} namespace={namespace} />
          ))
        )}
        <div ref={end} />
      </div>
      <form className="chat-form" onSubmit={submit}>
        <label htmlFor="question" className="visually-hidden">
          Your question
        </label>
        <textarea
          id="question"
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={keyDown}
          placeholder="Ask a question… (Enter sends, Shift+Enter adds a line)"
          rows={2}
          autoFocus
        />
        <button type="submit" className="button primary" disabled={busy || !question.trim()}>
          <Icon name="send" /> Ask
        </button>
      </form>
    </div>
  );
}

function ExchangeView({ exchange, namespace }: { exchange: Exchange; namespace: string }): ReactElement {
  const { openSource } = useWindow();
  const byNumber = new Map(exchange.sources.map((source) => [source.n, source]));
  const open = (source: Citation) => openSource(targetOfCitation(namespace, source));
  return (
    <article className="exchange">
      <p className="question">{exchange.question}</p>
      <div className="answer">
        {exchange.state === 'failed' ? (
          <p className="form-error" role="alert">
            No answer: {exchange.error}
          </p>
        ) : (
          <p className="answer-text">
            {answerParts(answerBody(exchange.answer)).map((part, index) => {
              if (part.kind === 'text') return <span key={index}>{part.text}</span>;
              return (
                <span key={index} className="citation-group">
                  {part.numbers.map((n) => {
                    const source = byNumber.get(n);
                    return source ? (
                      <button
                        key={n}
                        type="button"
                        className="citation"
                        onClick={() => open(source)}
                        aria-label={`Source ${n}: ${source.title}${placeOf(source) ? `, ${placeOf(source)}` : ''}`}
                      >
                        {n}
                      </button>
                    ) : (
                      <span key={n} className="citation pending">
                        {n}
                      </span>
                    );
                  })}
                </span>
              );
            })}
            {exchange.state === 'streaming' ? (
              <span className="cursor" aria-label="The answer is coming in" />
            ) : null}
          </p>
        )}
        {exchange.sources.length > 0 ? (
          <div className="sources-list">
            <h3>Sources</h3>
            <ol>
              {exchange.sources.map((source) => (
                <li key={source.n}>
                  <button type="button" className="source-link" onClick={() => open(source)}>
                    <span className="source-number">{source.n}</span>
                    <span className="source-title">{source.title}</span>
                    {placeOf(source) ? <span className="pill">{placeOf(source)}</span> : null}
                    {source.url ? <Icon name="external" size={14} /> : null}
                  </button>
                </li>
              ))}
            </ol>
          </div>
        ) : null}
      </div>
    </article>
  );
}
