import { html, LitElement, nothing } from 'lit';
import type { Message, UserEntity } from '../shared/chat-client/index.js';
import type { InteractiveFormData } from '../shared/interactive.js';
import { answerBody, answerSources } from './agent-answer.js';
import { isoTime, timeLabel } from './dates.js';
import { ENGLISH, format, type Locale } from './i18n.js';
import { checkIcon, doubleCheckIcon } from './icons.js';
import { parseMarkdown } from './markdown.js';
import { renderBlocks } from './markdown-view.js';
import { isAgent } from './peers.js';
import { messageStyles } from './parley-message.styles.js';
import { IDLE_SUBMISSION, type Submission } from './state.js';

export type DeliveryStatus = 'sent' | 'delivered' | 'read';

/** One message: its bubble (text, Markdown answer, form), sources, time and delivery state. */
export class ParleyMessage extends LitElement {
  static override properties = {
    message: { attribute: false },
    mine: { type: Boolean, reflect: true },
    status: {},
    showSender: { type: Boolean },
    locale: { attribute: false },
    submission: { attribute: false },
  };

  static override styles = messageStyles;

  declare message: Message;
  declare mine: boolean;
  declare status: DeliveryStatus | undefined;
  declare showSender: boolean;
  declare locale: Locale;
  /** For a form message: where this user's report of it stands (see `<parley-form>`). */
  declare submission: Submission;

  constructor() {
    super();
    this.mine = false;
    this.showSender = false;
    this.locale = ENGLISH;
    this.submission = IDLE_SUBMISSION;
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
          .submission=${this.submission}
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

declare global {
  interface HTMLElementTagNameMap {
    'parley-message': ParleyMessage;
  }
}
