import { html, LitElement, nothing } from 'lit';
import type { ChatTarget, Conversation, Message } from '../shared/chat-client/index.js';
import { sameTarget } from '../shared/chat-client/index.js';
import { memberActionText } from './action-text.js';
import { answerBody, answerSources } from './agent-answer.js';
import { conversationTime } from './dates.js';
import { ENGLISH, format, type Locale } from './i18n.js';
import { markdownToPlainText } from './markdown.js';
import { conversationTarget, isGroup, peerId } from './peers.js';
import { conversationListStyles } from './parley-conversation-list.styles.js';

/** One line of preview for the last message of a conversation. */
export function messagePreview(message: Message | undefined, me: string | undefined, locale: Locale): string {
  if (!message) return '';
  const t = locale.strings;
  const action = memberActionText(message, t);
  if (action) return action;
  if (message.deletedAt !== undefined) return t.deleted;
  const text =
    message.category === 'interactive'
      ? String((message.data.interactiveData as { title?: unknown } | undefined)?.title ?? t.unsupported)
      : (message.data.text ?? (message.data.attachments || message.data.url ? t.attachment : t.unsupported));
  const flat = markdownToPlainText(answerBody(text, answerSources(message).length > 0));
  if (message.sender.toLowerCase() === me?.toLowerCase()) return `${t.you}: ${flat}`;
  // In a group the preview says who wrote it, by first name.
  const sender = (message.data.entities.sender?.entity as { name?: string } | undefined)?.name;
  return message.receiverType === 'group' && sender ? `${sender.split(/\s+/)[0]}: ${flat}` : flat;
}

/** The list of conversations: avatar, name, last message, time and unread count; opens one on click. */
export class ParleyConversationList extends LitElement {
  static override properties = {
    conversations: { attribute: false },
    active: { attribute: false },
    me: {},
    loaded: { type: Boolean },
    locale: { attribute: false },
  };

  static override styles = conversationListStyles;

  declare conversations: Conversation[];
  declare active: ChatTarget | undefined;
  declare me: string | undefined;
  declare loaded: boolean;
  declare locale: Locale;

  constructor() {
    super();
    this.conversations = [];
    this.loaded = false;
    this.locale = ENGLISH;
  }

  override render() {
    const t = this.locale.strings;
    if (this.conversations.length === 0) {
      return html`<p class="empty" role="status">${this.loaded ? t.noConversations : t.loading}</p>`;
    }
    const now = Date.now() / 1000;
    return html`<ul aria-label=${t.conversations} @keydown=${this.#onKeydown}>
      ${this.conversations.map((conversation) => {
        const target = conversationTarget(conversation);
        const peer = conversation.conversationWith;
        const unread = conversation.unreadMessageCount ?? 0;
        const last = conversation.lastMessage;
        const current = this.active !== undefined && sameTarget(this.active, target);
        return html`<li>
          <button
            type="button"
            class=${unread > 0 ? 'unread' : ''}
            aria-current=${current ? 'true' : nothing}
            @click=${() => this.dispatchEvent(new CustomEvent('parley-open', { detail: target, bubbles: true, composed: true }))}
          >
            <parley-avatar
              .name=${peer.name}
              .src=${peer.avatar ?? (isGroup(peer) ? peer.icon : undefined)}
              .uid=${peerId(peer)}
            ></parley-avatar>
            <span class="main">
              <span class="row">
                <span class="name">${peer.name}</span>
                ${last ? html`<time>${conversationTime(last.sentAt, now, this.locale)}</time>` : nothing}
              </span>
              <span class="row">
                <span class="preview">${messagePreview(last, this.me, this.locale)}</span>
                ${
                  unread > 0
                    ? html`<span class="badge"
                        ><span aria-hidden="true">${unread}</span
                        ><span class="sr-only">${format(t.unread, { count: unread })}</span></span
                      >`
                    : nothing
                }
              </span>
            </span>
          </button>
        </li>`;
      })}
    </ul>`;
  }

  /** Arrow keys move between conversations; Tab leaves the list as usual. */
  #onKeydown(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const buttons = [...this.renderRoot.querySelectorAll('button')];
    const index = buttons.indexOf((this.renderRoot as ShadowRoot).activeElement as HTMLButtonElement);
    const next = buttons[index + (event.key === 'ArrowDown' ? 1 : -1)];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  }

  override focus(options?: FocusOptions): void {
    void this.updateComplete.then(() => {
      const current = this.renderRoot.querySelector<HTMLButtonElement>('button[aria-current="true"]');
      (current ?? this.renderRoot.querySelector('button'))?.focus(options);
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-conversation-list': ParleyConversationList;
  }
}
