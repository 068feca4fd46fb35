import { css, html, LitElement, nothing } from 'lit';
import type { Message, UserEntity } from '../shared/chat-client/index.js';
import type { InteractiveFormData } from '../shared/interactive.js';
import { answerBody, answerSources } from './agent-answer.js';
import { isoTime, timeLabel } from './dates.js';
import { ENGLISH, format, type Locale } from './i18n.js';
import { checkIcon, doubleCheckIcon } from './icons.js';
import { parseMarkdown } from './markdown.js';
import { renderBlocks } from './markdown-view.js';
import { isAgent } from './peers.js';
import { base } from './theme.js';

export type DeliveryStatus = 'sent' | 'delivered' | 'read';

/** Markdown styles of agent answers, shared with nothing else. */
const markdownStyles = css`
  .md > :first-child {
    margin-block-start: 0;
  }
  .md > :last-child {
    margin-block-end: 0;
  }
  .md p,
  .md ul,
  .md ol,
  .md pre,
  .md blockquote {
    margin-block: 0 0.6em;
  }
  .md ul,
  .md ol {
    padding-inline-start: 1.3em;
  }
  .md pre {
    overflow-x: auto;
    padding: 8px 10px;
    border-radius: 8px;
    background: color-mix(in srgb, currentColor 8%, transparent);
  }
  .md code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
  }
  .md blockquote {
    padding-inline-start: 10px;
    border-inline-start: 3px solid color-mix(in srgb, currentColor 30%, transparent);
  }
  .md hr {
    border: 0;
    border-block-start: 1px solid color-mix(in srgb, currentColor 20%, transparent);
  }
  .md-h1,
  .md-h2 {
    font-size: 1.1em;
  }
`;

/** One message: its bubble (text, Markdown answer, form), sources, time and delivery state. */
export class ParleyMessage extends LitElement {
  static override properties = {
    message: { attribute: false },
    mine: { type: Boolean, reflect: true },
    status: {},
    showSender: { type: Boolean },
    locale: { attribute: false },
  };

  static override styles = [
    base,
    markdownStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        align-items: flex-start;
        max-inline-size: 100%;
      }
      :host([mine]) {
        align-items: flex-end;
      }
      .sender {
        margin-inline: 12px;
        margin-block-end: 2px;
        font-size: 0.8em;
        font-weight: 600;
        color: var(--_muted);
      }
      .bubble {
        max-inline-size: min(85%, 520px);
        padding: 8px 12px;
        border-radius: var(--_radius);
        border-end-start-radius: 6px;
        background: var(--_theirs);
        color: var(--_on-theirs);
        line-height: 1.45;
        overflow-wrap: anywhere;
      }
      :host([mine]) .bubble {
        border-end-start-radius: var(--_radius);
        border-end-end-radius: 6px;
        background: var(--_mine);
        color: var(--_on-mine);
      }
      .text {
        white-space: pre-wrap;
        margin: 0;
      }
      .deleted {
        font-style: italic;
        color: var(--_muted);
      }
      .form {
        inline-size: min(100%, 360px);
        max-inline-size: min(100%, 360px);
        background: var(--_bg);
        color: var(--_text);
        border: 1px solid var(--_border);
      }
      .agent {
        background: var(--_bg);
        border: 1px solid var(--_border);
        max-inline-size: min(92%, 560px);
      }
      a {
        color: inherit;
      }
      .sources {
        margin-block-start: 8px;
        padding-block-start: 8px;
        border-block-start: 1px solid var(--_border);
        font-size: 0.875em;
      }
      .sources h3 {
        margin: 0 0 4px;
        font-size: 1em;
      }
      .sources ol {
        margin: 0;
        padding-inline-start: 1.4em;
      }
      .sources a {
        color: var(--_accent);
      }
      .page {
        color: var(--_muted);
      }
      .meta {
        display: flex;
        align-items: center;
        gap: 4px;
        margin: 2px 8px 0;
        font-size: 0.75em;
        color: var(--_muted);
      }
      .meta svg {
        inline-size: 16px;
        block-size: 16px;
      }
      .read svg {
        color: var(--_accent);
      }
    `,
  ];

  declare message: Message;
  declare mine: boolean;
  declare status: DeliveryStatus | undefined;
  declare showSender: boolean;
  declare locale: Locale;

  constructor() {
    super();
    this.mine = false;
    this.showSender = false;
    this.locale = ENGLISH;
  }

  override render() {
    const message = this.message;
    if (!message) return nothing;
    const sender = message.data.entities.sender?.entity as UserEntity | undefined;
    const t = this.locale.strings;
    return html`
      ${this.showSender && !this.mine ? html`<span class="sender">${sender?.name ?? message.sender}</span>` : nothing}
      ${this.#body(message, sender)}
      <span class="meta">
        <time datetime=${isoTime(message.sentAt)}>${timeLabel(message.sentAt, this.locale)}</time>
        ${message.editedAt !== undefined && message.deletedAt === undefined ? html`<span>· ${t.edited}</span>` : nothing}
        ${
          this.mine && this.status
            ? html`<span class=${this.status} role="img" aria-label=${t[this.status]}
                >${this.status === 'sent' ? checkIcon : doubleCheckIcon}</span
              >`
            : nothing
        }
      </span>
    `;
  }

  #body(message: Message, sender: UserEntity | undefined) {
    const t = this.locale.strings;
    if (message.category === 'interactive' && message.type === 'form') {
      return html`<div class="bubble form">
        <parley-form
          .data=${message.data as unknown as InteractiveFormData}
          .messageId=${message.id}
          .interactions=${message.data.interactions ?? []}
          .locale=${this.locale}
        ></parley-form>
      </div>`;
    }
    if (message.deletedAt !== undefined)
      return html`<div class="bubble deleted"><p class="text">${t.deleted}</p></div>`;
    const text = message.data.text;
    if (typeof text !== 'string') return html`<div class="bubble"><p class="text">${t.unsupported}</p></div>`;
    const sources = answerSources(message);
    if (!isAgent(sender) && sources.length === 0)
      return html`<div class="bubble"><p class="text">${text}</p></div>`;
    return html`<div class="bubble agent">
      <div class="md">${renderBlocks(parseMarkdown(answerBody(text, sources.length > 0)))}</div>
      ${
        sources.length > 0
          ? html`<section class="sources" aria-label=${t.sources}>
              <h3>${t.sources}</h3>
              <ol>
                ${sources.map(
                  (source) =>
                    html`<li value=${source.n ?? nothing}>
                      ${
                        source.url
                          ? html`<a href=${source.url} target="_blank" rel="noopener noreferrer"
                              >${source.title}<span class="sr-only"> ${t.newTab}</span></a
                            >`
                          : source.title
                      }${source.page !== undefined ? html`<span class="page">, ${format(t.page, { page: source.page })}</span>` : nothing}
                    </li>`,
                )}
              </ol>
            </section>`
          : nothing
      }
    </div>`;
  }
}
