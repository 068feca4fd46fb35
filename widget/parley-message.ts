import { html, LitElement, nothing } from 'lit';
import type { Message, UserEntity } from '../shared/chat-client/index.js';
import type { InteractiveFormData } from '../shared/interactive.js';
import { answerBody, answerSources } from './agent-answer.js';
import { isoTime, timeLabel } from './dates.js';
import { ENGLISH, format, formatBytes, type Locale } from './i18n.js';
import { checkIcon, doubleCheckIcon } from './icons.js';
import { parseMarkdown } from './markdown.js';
import { renderBlocks } from './markdown-view.js';
import { isAgent } from './peers.js';
import { messageStyles } from './parley-message.styles.js';
import { IDLE_SUBMISSION, type Submission } from './state.js';

export type DeliveryStatus = 'sent' | 'delivered' | 'read';

/** The reactions one click away. */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🎉'];

/** The detail of `parley-react` (give or take back a reaction) and `parley-reactors` (who gave it?). */
export interface ReactionDetail {
  messageId: string;
  reaction: string;
}

/**
 * One message: its bubble (text, Markdown answer, form), sources, time and delivery state, its
 * reactions (who gave each shows on hover and focus), the quick reactions and its thread's replies.
 */
export class ParleyMessage extends LitElement {
  static override properties = {
    message: { attribute: false },
    mine: { type: Boolean, reflect: true },
    status: {},
    showSender: { type: Boolean },
    locale: { attribute: false },
    submission: { attribute: false },
    reactors: { attribute: false },
    threaded: { type: Boolean },
    picking: { state: true },
  };

  static override styles = messageStyles;

  declare message: Message;
  declare mine: boolean;
  declare status: DeliveryStatus | undefined;
  declare showSender: boolean;
  declare locale: Locale;
  /** For a form message: where this user's report of it stands (see `<parley-form>`). */
  declare submission: Submission;
  /** Names of who reacted, by `<message id> <reaction>`, as far as known. */
  declare reactors: Readonly<Record<string, string[]>>;
  /** Whether the message offers its thread of replies (not inside that thread). */
  declare threaded: boolean;
  /** Whether the quick reactions are open. */
  declare picking: boolean;

  constructor() {
    super();
    this.mine = false;
    this.showSender = false;
    this.locale = ENGLISH;
    this.submission = IDLE_SUBMISSION;
    this.reactors = {};
    this.threaded = false;
    this.picking = false;
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
      ${this.#reactions(message)}
    `;
  }

  #reactions(message: Message) {
    if (message.deletedAt !== undefined) return nothing;
    const t = this.locale.strings;
    const id = message.id;
    const react = (reaction: string) => {
      this.picking = false;
      this.#emit('parley-react', { messageId: id, reaction });
    };
    const replies = message.replyCount ?? 0;
    return html`<div class="reactions">
      ${(message.data.reactions ?? []).map(({ reaction, count, reactedByMe }, index) => {
        const who = this.reactors[`${id} ${reaction}`];
        const ask = () => this.#emit('parley-reactors', { messageId: id, reaction });
        return html`<span class="chip">
          <button
            type="button"
            aria-pressed=${reactedByMe ? 'true' : 'false'}
            aria-label=${format(t.reactionCount, { reaction, count })}
            aria-describedby="who-${index}"
            @click=${() => react(reaction)}
            @focus=${ask}
            @mouseenter=${ask}
          >
            ${reaction} ${count}
          </button>
          <span role="tooltip" id="who-${index}">${who ? who.join(', ') : t.loading}</span>
        </span>`;
      })}
      <button
        type="button"
        class="tool"
        aria-label=${t.react}
        aria-expanded=${this.picking ? 'true' : 'false'}
        @click=${() => (this.picking = !this.picking)}
      >
        ☺+
      </button>
      ${
        this.picking
          ? html`<span role="group" aria-label=${t.react} class="quick" @keydown=${this.#closePicker}>
              ${QUICK_REACTIONS.map(
                (reaction) =>
                  html`<button
                    type="button"
                    aria-label=${format(t.reactWith, { reaction })}
                    @click=${() => react(reaction)}
                  >
                    ${reaction}
                  </button>`,
              )}
            </span>`
          : nothing
      }
      ${
        this.threaded
          ? html`<button
              type="button"
              class="tool"
              @click=${(event: Event) => this.#emit('parley-open-replies', id, event.currentTarget)}
            >
              ${replies === 0 ? t.reply : format(replies === 1 ? t.oneReply : t.replies, { count: replies })}
            </button>`
          : nothing
      }
    </div>`;
  }

  #closePicker = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    this.picking = false;
  };

  /** Fires `type` from `from` (this element by default): the control that caused it gets the focus back later. */
  #emit(type: string, detail: unknown, from: EventTarget | null = this): void {
    (from ?? this).dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  /** A file link clicked after its signed URL expired: followed once the message has fresh ones. */
  #follow: EventTarget | null = null;

  /** A click on a file link whose URL has expired asks for the message again, then follows the fresh link. */
  #open = (event: Event): void => {
    const link = event.currentTarget as HTMLAnchorElement;
    const expires = new URL(link.href).searchParams.get('expires');
    if (link === this.#follow || !expires || +expires * 1e3 > Date.now()) {
      this.#follow = null;
      return;
    }
    event.preventDefault();
    this.#follow = link;
    this.#emit('parley-media-failed', this.message.id);
  };

  override updated(changed: Map<PropertyKey, unknown>): void {
    if (changed.has('message')) (this.#follow as HTMLElement | null)?.click();
  }

  /**
   * Attachments: images (their thumbnail, lazily, in the space their dimensions reserve) open in
   * full; audio and video play in place; other files download. A file that fails to load or a file
   * link clicked after its signed URL expired asks for the message again (`parley-media-failed`).
   */
  #media(message: Message) {
    const t = this.locale.strings;
    const failed = () => this.#emit('parley-media-failed', message.id);
    const injected = message.data.metadata?.['@injected'] as
      | {
          extensions?: Record<
            string,
            { attachments?: { data?: { thumbnails?: { url_medium?: string } } }[] }
          >;
        }
      | undefined;
    const thumbnails = injected?.extensions?.['thumbnail-generation']?.attachments ?? [];
    return html`<div class="bubble media">
      ${message.data.attachments!.map(
        ({ url, name = t.attachment, mimeType = '', size, metadata }, index) => {
          const { width, height } = (metadata ?? {}) as { width?: number; height?: number };
          const [kind] = mimeType.split('/');
          return kind === 'image'
            ? html`<a href=${url} target="_blank" rel="noopener noreferrer"
                ><img
                  src=${thumbnails[index]?.data?.thumbnails?.url_medium ?? url}
                  alt=${name}
                  width=${width ?? nothing}
                  height=${height ?? nothing}
                  loading="lazy"
                  @error=${failed}
                /><span class="sr-only"> ${t.newTab}</span></a
              >`
            : kind === 'audio'
              ? html`<audio
                  controls
                  preload="metadata"
                  src=${url}
                  aria-label=${name}
                  @error=${failed}
                ></audio>`
              : kind === 'video'
                ? html`<video
                    controls
                    preload="metadata"
                    src=${url}
                    aria-label=${name}
                    width=${width ?? nothing}
                    height=${height ?? nothing}
                    @error=${failed}
                  ></video>`
                : html`<a class="file" href=${url} download=${name} @click=${this.#open}
                    >${name}
                    <span>${formatBytes(Number(size ?? 0), this.locale.language)} · ${mimeType}</span></a
                  >`;
        },
      )}
    </div>`;
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
    if (message.data.attachments?.length) return this.#media(message);
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
