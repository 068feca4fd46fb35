import { html, LitElement, nothing } from 'lit';
import type { Message, UserEntity } from '../shared/chat-client/index.js';
import { ENGLISH, format, type Locale } from './i18n.js';
import { closeIcon } from './icons.js';
import { repliesStyles } from './parley-replies.styles.js';
import type { RepliesState } from './state.js';

/**
 * The thread of replies to one message, over its conversation: the message, its replies (a
 * labelled log, older pages on request) and a composer whose messages and files are replies (its
 * file events reach the chat from inside this element, which makes them the thread's). Escape or the
 * close button closes it; its composer has the focus when it opens.
 */
export class ParleyReplies extends LitElement {
  static override properties = {
    replies: { attribute: false },
    me: {},
    reactors: { attribute: false },
    locale: { attribute: false },
  };

  static override styles = repliesStyles;

  declare replies: RepliesState | undefined;
  declare me: string;
  declare reactors: Readonly<Record<string, string[]>>;
  declare locale: Locale;

  constructor() {
    super();
    this.me = '';
    this.reactors = {};
    this.locale = ENGLISH;
  }

  override focus(options?: FocusOptions): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector('parley-composer')?.focus(options));
  }

  override render() {
    const replies = this.replies;
    if (!replies) return nothing;
    const t = this.locale.strings;
    const parent = replies.parent;
    const name = (parent.data.entities.sender?.entity as UserEntity | undefined)?.name ?? parent.sender;
    return html`
      <header @keydown=${this.#onKey}>
        <h2>${t.thread}</h2>
        <button class="icon-button" type="button" aria-label=${t.closeThread} @click=${this.#close}>
          ${closeIcon}
        </button>
      </header>
      <div
        class="log"
        role="log"
        tabindex="0"
        aria-label=${format(t.repliesTo, { name })}
        aria-busy=${replies.loading ? 'true' : 'false'}
        @keydown=${this.#onKey}
      >
        <div class="parent">${this.#message(parent)}</div>
        ${
          replies.older
            ? html`<button
                class="older"
                type="button"
                @click=${() => this.#emit('parley-load-older-replies')}
              >
                ${replies.loading ? t.loading : t.loadOlder}
              </button>`
            : nothing
        }
        ${replies.messages.map((message) => this.#message(message))}
        ${replies.loading && !replies.older ? html`<p class="note">${t.loading}</p>` : nothing}
        ${replies.error ? html`<p class="note" role="alert">${replies.error}</p>` : nothing}
      </div>
      <parley-composer
        .locale=${this.locale}
        .candidates=${[]}
        .drafts=${replies.drafts}
        .uploads=${replies.uploads}
        @keydown=${this.#onKey}
        @parley-send=${(event: CustomEvent<string>) => {
          // The conversation's composer sends messages; this one sends replies.
          event.stopPropagation();
          this.#emit('parley-reply', event.detail);
        }}
      ></parley-composer>
    `;
  }

  #message(message: Message) {
    return html`<parley-message
      .message=${message}
      ?mine=${message.sender.toLowerCase() === this.me.toLowerCase()}
      showSender
      .locale=${this.locale}
      .reactors=${this.reactors}
    ></parley-message>`;
  }

  /** Escape closes the thread, not the window around it (unless something inside used the key). */
  #onKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    event.stopPropagation();
    this.#close();
  };

  #close(): void {
    this.#emit('parley-close-replies');
  }

  #emit(type: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-replies': ParleyReplies;
  }
}
