import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import type { Message, UserEntity } from '../shared/chat-client/index.js';
import { memberActionText } from './action-text.js';
import { dayKey, dayLabel, timeLabel } from './dates.js';
import { ENGLISH, format, type Locale } from './i18n.js';
import { alertIcon, backIcon, clockIcon } from './icons.js';
import type { DeliveryStatus } from './parley-message.js';
import { isGroup, peerId } from './peers.js';
import { threadStyles } from './parley-thread.styles.js';
import { IDLE_SUBMISSION, type PendingMessage, type ThreadState } from './state.js';

/** How close to the top (px) scrolling has to come before older messages load. */
const LOAD_OLDER_MARGIN = 120;
/** Within this distance of the bottom the log follows new messages. */
const STICK_TO_BOTTOM = 80;

export function deliveryStatus(message: Message, thread: ThreadState): DeliveryStatus {
  const id = Number(message.id);
  if (id <= thread.readUpTo || message.readAt !== undefined) return 'read';
  if (id <= thread.deliveredUpTo || message.deliveredAt !== undefined) return 'delivered';
  return 'sent';
}

/**
 * An open conversation: header, the message log (a labelled live region that loads older pages as
 * it scrolls up, with date separators), the typing indicator and the composer.
 */
export class ParleyThread extends LitElement {
  static override properties = {
    thread: { attribute: false },
    me: {},
    narrow: { type: Boolean },
    locale: { attribute: false },
  };

  static override styles = threadStyles;

  declare thread: ThreadState | undefined;
  declare me: string;
  declare narrow: boolean;
  declare locale: Locale;
  #resize: ResizeObserver | undefined;
  /** Whether the log is at its bottom and should stay there as messages arrive. */
  #stick = true;
  #first: string | undefined;
  #height = 0;
  #pendingCount = 0;
  /** What had the focus when a thread of replies opened; it gets it back when the thread closes. */
  #beforeReplies: HTMLElement | undefined;

  constructor() {
    super();
    this.me = '';
    this.narrow = false;
    this.locale = ENGLISH;
    // Files dropped anywhere on the conversation are attached.
    this.addEventListener('dragover', (event) => event.preventDefault());
    this.addEventListener('drop', (event) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      event.preventDefault();
      this.dispatchEvent(new CustomEvent('parley-attach', { detail: files, bubbles: true, composed: true }));
    });
  }

  get #log(): HTMLElement | null {
    return this.renderRoot.querySelector('.log');
  }

  /** Focuses the composer, once this element and the composer have rendered. */
  override focus(options?: FocusOptions): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector('parley-composer')?.focus(options));
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize?.disconnect();
    this.#resize = undefined;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const items = this.renderRoot.querySelector('.items');
    if (items && !this.#resize) {
      // Messages render after this element (their own update cycles, forms, fonts), so the log
      // reacts to its content's size rather than to this element's updates.
      this.#resize = new ResizeObserver(() => this.#keepPosition());
      this.#resize.observe(items);
    }
    if (changed.has('thread') && changed.get('thread')?.target !== this.thread?.target) this.#stick = true;
    const hadReplies = changed.has('thread') && changed.get('thread')?.replies !== undefined;
    if (!hadReplies && this.thread?.replies) this.renderRoot.querySelector('parley-replies')?.focus();
    if (hadReplies && !this.thread?.replies) {
      this.#beforeReplies?.focus();
      this.#beforeReplies = undefined;
    }
    const pendingCount = this.thread?.pending.length ?? 0;
    if (pendingCount > this.#pendingCount) this.#stick = true; // this user just sent something: show it
    this.#pendingCount = pendingCount;
  }

  /** Follows new messages while at the bottom; keeps the view still while older ones are added above. */
  #keepPosition(): void {
    const log = this.#log;
    if (!log) return;
    const first = this.thread?.messages[0]?.id;
    if (this.#stick) log.scrollTop = log.scrollHeight;
    else if (first !== this.#first) log.scrollTop += log.scrollHeight - this.#height;
    this.#first = first;
    this.#height = log.scrollHeight;
    // A short first page leaves nothing to scroll; keep loading until the log can scroll.
    if (log.scrollHeight <= log.clientHeight) this.#loadOlder();
  }

  override render() {
    const thread = this.thread;
    if (!thread) return nothing;
    const t = this.locale.strings;
    const peer = thread.peer;
    const name = peer?.name ?? thread.target.id;
    const typing = this.#typingText(thread.typing);
    const subtitle =
      typing ||
      (peer && isGroup(peer) && peer.membersCount !== undefined
        ? format(t.members, { count: peer.membersCount })
        : peer && !isGroup(peer) && peer.status === 'online'
          ? t.online
          : '');
    return html`
      <header>
        ${
          this.narrow
            ? html`<button
                class="icon-button"
                type="button"
                aria-label=${t.back}
                @click=${() => this.#emit('parley-back')}
              >
                ${backIcon}
              </button>`
            : nothing
        }
        <parley-avatar
          .name=${name}
          .src=${peer && !isGroup(peer) ? peer.avatar : peer?.icon}
          .uid=${peer ? peerId(peer) : thread.target.id}
        ></parley-avatar>
        <div class="who">
          <h2>${name}</h2>
          <span class="subtitle" aria-hidden="true">${subtitle}</span>
        </div>
      </header>
      <div
        class="log"
        role="log"
        aria-label=${format(t.messagesWith, { name })}
        aria-busy=${thread.loading || thread.loadingOlder ? 'true' : 'false'}
        tabindex="0"
        @scroll=${this.#onScroll}
      >
        ${
          thread.loading
            ? html`<p class="note">${t.loading}</p>`
            : thread.older
              ? html`<button class="older" type="button" @click=${this.#loadOlder}>
                  ${thread.loadingOlder ? t.loading : t.loadOlder}
                </button>`
              : html`<p class="note">${t.start}</p>`
        }
        <div class="items">
          ${this.#messages(thread)} ${thread.pending.map((pending) => this.#pending(pending))}
        </div>
      </div>
      <p class="typing" aria-live="polite">${typing}</p>
      <parley-composer
        .locale=${this.locale}
        .candidates=${thread.mentionCandidates}
        .drafts=${thread.drafts}
        .uploads=${thread.uploads}
      ></parley-composer>
      ${
        thread.replies
          ? html`<parley-replies
              .replies=${thread.replies}
              .me=${this.me}
              .reactors=${thread.reactors}
              .locale=${this.locale}
            ></parley-replies>`
          : nothing
      }
    `;
  }

  #messages(thread: ThreadState): TemplateResult[] {
    const now = Date.now() / 1000;
    const group = thread.target.type === 'group';
    const t = this.locale.strings;
    const out: TemplateResult[] = [];
    let previousDay = '';
    let previousSender = '';
    for (const message of thread.messages) {
      if (message.category === 'action' && !memberActionText(message, this.locale.strings)) continue;
      const day = dayKey(message.sentAt);
      if (day !== previousDay) {
        out.push(html`<h3 class="day">${dayLabel(message.sentAt, now, this.locale)}</h3>`);
        previousSender = '';
      }
      const action = memberActionText(message, this.locale.strings);
      if (action) {
        out.push(html`<p class="note">${action}</p>`);
        previousDay = day;
        previousSender = '';
        continue;
      }
      const mine = message.sender.toLowerCase() === this.me.toLowerCase();
      if (message.id === thread.unreadFrom) out.push(html`<h3 class="day unread">${t.newMessages}</h3>`);
      out.push(
        html`<parley-message
          .message=${message}
          ?mine=${mine}
          .status=${mine ? deliveryStatus(message, thread) : undefined}
          ?showSender=${group && message.sender !== previousSender}
          .locale=${this.locale}
          .submission=${thread.submissions[message.id] ?? IDLE_SUBMISSION}
          .reactors=${thread.reactors}
          threaded
          @parley-open-replies=${this.#rememberFocus}
        ></parley-message>`,
      );
      previousDay = day;
      previousSender = message.sender;
    }
    return out;
  }

  #pending(pending: PendingMessage): TemplateResult {
    const t = this.locale.strings;
    const failed = pending.status === 'failed';
    const label = failed ? t.failed : pending.status === 'queued' ? t.queued : '';
    return html`<div class="pending ${failed ? 'failed' : ''}">
      <p>${pending.text}</p>
      <span class="meta"
        >${timeLabel(pending.createdAt, this.locale)} ${failed ? alertIcon : clockIcon}
        <span>${label}</span></span
      >
    </div>`;
  }

  #typingText(users: readonly UserEntity[]): string {
    const t = this.locale.strings;
    if (users.length === 0) return '';
    return users.length === 1 ? format(t.typing, { name: users[0]!.name }) : t.typingSeveral;
  }

  #rememberFocus = (event: Event): void => {
    const opener = event.composedPath()[0];
    if (opener instanceof HTMLElement) this.#beforeReplies = opener;
  };

  #onScroll(): void {
    const log = this.#log;
    if (!log) return;
    this.#stick = log.scrollHeight - log.scrollTop - log.clientHeight < STICK_TO_BOTTOM;
    if (log.scrollTop < LOAD_OLDER_MARGIN) this.#loadOlder();
  }

  #loadOlder(): void {
    if (this.thread?.older && !this.thread.loadingOlder) this.#emit('parley-load-older');
  }

  #emit(type: string): void {
    this.dispatchEvent(new CustomEvent(type, { bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-thread': ParleyThread;
  }
}
