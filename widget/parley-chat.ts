import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { ChatClient, type ChatTarget, type ConversationType } from '../shared/chat-client/index.js';
import { ChatStore } from './chat-store.js';
import { ENGLISH, format, loadLocale, type Locale } from './i18n.js';
import { closeIcon } from './icons.js';
import type { InteractDetail } from './parley-form.js';
import type { ReactionDetail } from './parley-message.js';
import { chatStyles } from './parley-chat.styles.js';
import type { ChatState } from './state.js';

/** Below this width (px) the list and the thread share one pane. */
const TWO_PANES_FROM = 640;

/** Whether a file event came from the thread of replies (its composer or its files), not the conversation's. */
const inReplies = (event: Event): boolean =>
  event.composedPath().some((node) => (node as Element).localName === 'parley-replies');

/** A CSS length for width/height options: `380px`, `100%`, `80vh`; a bare number means pixels. */
export function cssLength(value: string | number | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) return `${text}px`;
  return /^\d+(\.\d+)?(px|%|vw|vh|dvh|svh|lvh|rem|em)$/.test(text) ? text : undefined;
}

/**
 * `<parley-chat>`: the chat widget. Embedded, it fills its box; docked, it is a launcher bubble
 * that opens a chat window. Configure it with attributes (`app-id`, `region`, `auth-key`, `uid`,
 * `host`, `docked`, …) to log in by itself, or hand it a `store` (the embed API does).
 */
export class ParleyChat extends LitElement {
  static override properties = {
    appId: { attribute: 'app-id' },
    region: {},
    authKey: { attribute: 'auth-key' },
    uid: {},
    host: {},
    docked: { type: Boolean, reflect: true },
    alignment: { reflect: true },
    width: {},
    height: {},
    chatType: { attribute: 'chat-type' },
    chatId: { attribute: 'chat-id' },
    language: {},
    theme: { reflect: true },
    open: { type: Boolean, reflect: true },
    store: { attribute: false },
    state: { state: true },
    locale: { state: true },
    narrow: { state: true },
  };

  static override styles = chatStyles;

  declare appId: string | undefined;
  declare region: string;
  declare authKey: string | undefined;
  declare uid: string | undefined;
  declare host: string | undefined;
  declare docked: boolean;
  declare alignment: 'left' | 'right';
  declare width: string | undefined;
  declare height: string | undefined;
  declare chatType: ConversationType | undefined;
  declare chatId: string | undefined;
  declare language: string | undefined;
  declare theme: 'light' | 'dark' | 'auto';
  declare open: boolean;
  declare store: ChatStore | undefined;
  declare state: ChatState | undefined;
  declare locale: Locale;
  declare narrow: boolean;
  /** A store this element made from its attributes, and so must close when it leaves the page. */
  #ownStore: ChatStore | undefined;
  #unsubscribe: (() => void) | undefined;
  #resize: ResizeObserver | undefined;
  #sizes: CSSStyleSheet | undefined;
  #viewport = { height: 0, top: 0 };
  #cleanup: Array<() => void> = [];

  constructor() {
    super();
    this.region = 'eu';
    this.docked = false;
    this.alignment = 'right';
    this.theme = 'light';
    this.open = false;
    this.locale = ENGLISH;
    this.narrow = true;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.store && this.appId && this.uid) this.#startFromAttributes();
    const onOnline = () => this.store?.client.reconnectNow();
    const onVisibility = () => this.#syncVisibility();
    globalThis.addEventListener?.('online', onOnline);
    globalThis.document?.addEventListener('visibilitychange', onVisibility);
    this.#cleanup.push(
      () => globalThis.removeEventListener?.('online', onOnline),
      () => globalThis.document?.removeEventListener('visibilitychange', onVisibility),
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const cleanup of this.#cleanup.splice(0)) cleanup();
    this.#resize?.disconnect();
    this.#resize = undefined;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    if (this.#ownStore) {
      this.#ownStore.dispose();
      this.#ownStore.client.disconnect();
      this.#ownStore = undefined;
      this.store = undefined;
    }
  }

  /** Opens a conversation (and a docked window). */
  async openConversation(target: ChatTarget): Promise<void> {
    if (this.docked) this.open = true;
    await this.store?.open(target);
  }

  #startFromAttributes(): void {
    const client = new ChatClient({
      appId: this.appId!,
      region: this.region,
      ...(this.authKey ? { authKey: this.authKey } : {}),
      ...(this.host ? { host: this.host } : {}),
    });
    this.#ownStore = new ChatStore(client);
    this.store = this.#ownStore;
    void this.#signIn();
  }

  async #signIn(): Promise<void> {
    try {
      await this.store?.signIn({ uid: this.uid! });
    } catch {
      // The store holds the error; the window shows it with a retry button.
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('store')) {
      this.#unsubscribe?.();
      this.#unsubscribe = this.store?.events.on('change', (state) => (this.state = state));
      this.state = this.store?.state;
    }
    if (changed.has('language')) {
      const requested = this.language;
      void loadLocale(requested).then((locale) => {
        if (this.language === requested) this.locale = locale;
      });
    }
    if (changed.has('state') && this.state?.phase === 'ready' && changed.get('state')?.phase !== 'ready') {
      if (this.chatType && this.chatId) void this.store?.open({ type: this.chatType, id: this.chatId });
    }
  }

  protected override firstUpdated(): void {
    this.#resize = new ResizeObserver(() => this.#measure());
    this.#resize.observe(this);
    const viewport = globalThis.visualViewport;
    if (viewport) {
      // On phones the keyboard shrinks the visual viewport; the docked window follows it.
      const follow = () => {
        this.#viewport = { height: viewport.height, top: viewport.offsetTop };
        this.#applySizes();
      };
      viewport.addEventListener('resize', follow);
      viewport.addEventListener('scroll', follow);
      this.#cleanup.push(
        () => viewport.removeEventListener('resize', follow),
        () => viewport.removeEventListener('scroll', follow),
      );
      follow();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('width') || changed.has('height')) this.#applySizes();
    if (changed.has('open') || changed.has('docked') || changed.has('store')) this.#syncVisibility();
    if (changed.has('open') && this.docked && changed.get('open') !== undefined) {
      // Focus follows the window: into it when it opens, back to the launcher when it closes.
      if (this.open) this.#focusInside();
      else this.renderRoot.querySelector('parley-launcher')?.focus();
    }
    if (this.docked && this.open) this.#measure();
  }

  /** Sizes come from options, so they go through a constructed stylesheet: no style attributes, CSP-safe. */
  #applySizes(): void {
    if (typeof CSSStyleSheet === 'undefined' || !this.shadowRoot) return;
    if (!this.#sizes) {
      this.#sizes = new CSSStyleSheet();
      this.shadowRoot.adoptedStyleSheets = [...this.shadowRoot.adoptedStyleSheets, this.#sizes];
    }
    const rules = [
      cssLength(this.width) ? `--_w:${cssLength(this.width)};` : '',
      cssLength(this.height) ? `--_h:${cssLength(this.height)};` : '',
      this.#viewport.height > 0 ? `--_vvh:${this.#viewport.height}px;--_vvt:${this.#viewport.top}px;` : '',
    ].join('');
    this.#sizes.replaceSync(`:host{${rules}}`);
  }

  #measure(): void {
    const box = this.renderRoot.querySelector('.window');
    const width = box?.getBoundingClientRect().width ?? 0;
    const narrow = width > 0 && width < TWO_PANES_FROM;
    if (width > 0 && narrow !== this.narrow) this.narrow = narrow;
  }

  #syncVisibility(): void {
    const pageVisible = globalThis.document?.visibilityState !== 'hidden';
    this.store?.setVisible(pageVisible && (!this.docked || this.open));
  }

  #focusInside(): void {
    void this.updateComplete.then(() => {
      const target =
        this.renderRoot.querySelector('parley-thread') ??
        this.renderRoot.querySelector('parley-conversation-list');
      (target as HTMLElement | null)?.focus();
    });
  }

  override render() {
    const t = this.locale.strings;
    const windowShown = !this.docked || this.open;
    return html`
      ${
        windowShown
          ? html`<section
              class="window ${this.docked ? 'docked' : ''}"
              role=${this.docked ? 'dialog' : 'region'}
              aria-label=${t.chats}
              @keydown=${this.#onKeydown}
              @parley-open=${this.#openFromList}
              @parley-back=${this.#back}
              @parley-send=${(e: CustomEvent<string>) => this.#withActive((target) => this.store?.send(target, e.detail))}
              @parley-typing=${() => this.#withActive((target) => this.store?.typing(target))}
              @parley-load-older=${() => this.#withActive((target) => this.store?.loadOlder(target))}
              @parley-mention-candidates=${() => this.#withActive((target) => this.store?.mentionCandidates(target))}
              @parley-interact=${this.#interact}
              @parley-react=${(e: CustomEvent<ReactionDetail>) => this.store?.react(e.detail.messageId, e.detail.reaction)}
              @parley-reactors=${(e: CustomEvent<ReactionDetail>) =>
                this.store?.reactors(e.detail.messageId, e.detail.reaction)}
              @parley-open-replies=${(e: CustomEvent<string>) =>
                this.#withActive((target) => this.store?.openReplies(target, e.detail))}
              @parley-close-replies=${() => this.#withActive((target) => this.store?.closeReplies(target))}
              @parley-load-older-replies=${() => this.#withActive((target) => this.store?.loadOlderReplies(target))}
              @parley-reply=${(e: CustomEvent<string>) => this.#withActive((target) => this.store?.reply(target, e.detail))}
              @parley-attach=${(e: CustomEvent<File[]>) => this.#withActive((target) => this.store?.attach(target, e.detail, inReplies(e)))}
              @parley-unattach=${(e: CustomEvent<number>) => this.#withActive((target) => this.store?.unattach(target, e.detail, inReplies(e)))}
              @parley-send-attached=${(e: Event) => this.#withActive((target) => this.store?.sendAttached(target, inReplies(e)))}
              @parley-cancel-upload=${(e: CustomEvent<string>) =>
                this.#withActive((target) => this.store?.cancelUpload(target, e.detail, inReplies(e)))}
              @parley-media-failed=${(e: CustomEvent<string>) => this.store?.refresh(e.detail)}
            >
              <div class="top">
                <h2>${t.chats}</h2>
                ${
                  this.docked
                    ? html`<button
                        class="icon-button"
                        type="button"
                        aria-label=${t.closeChat}
                        @click=${() => (this.open = false)}
                      >
                        ${closeIcon}
                      </button>`
                    : nothing
                }
              </div>
              ${this.state?.reconnecting ? html`<p class="banner" role="status">${t.reconnecting}</p>` : nothing}
              ${this.#body()}
            </section>`
          : nothing
      }
      ${
        this.docked
          ? html`<parley-launcher
              .open=${this.open}
              .unread=${this.state?.unread ?? 0}
              .locale=${this.locale}
              @parley-toggle=${() => (this.open = !this.open)}
            ></parley-launcher>`
          : nothing
      }
    `;
  }

  #body() {
    const t = this.locale.strings;
    const state = this.state;
    if (!state || state.phase === 'idle' || state.phase === 'signing-in') {
      return html`<div class="notice" role="status">${t.loading}</div>`;
    }
    if (state.phase === 'error' || state.phase === 'signed-out') {
      return html`<div class="notice" role="alert">
        <p>${format(t.signInFailed, { reason: state.error ?? '' })}</p>
        ${this.uid ? html`<button type="button" @click=${() => void this.#signIn()}>${t.retry}</button>` : nothing}
      </div>`;
    }
    const active = state.active;
    const thread = this.store?.thread(active);
    const showList = !this.narrow || !active;
    const list = html`<parley-conversation-list
      .conversations=${state.conversations}
      .active=${active}
      .me=${state.me?.uid}
      ?loaded=${state.conversationsLoaded}
      .locale=${this.locale}
    ></parley-conversation-list>`;
    return html`<div class="panes ${this.narrow ? 'narrow' : 'wide'}">
      ${showList ? list : nothing}
      ${
        thread
          ? html`<parley-thread
              .thread=${thread}
              .me=${state.me?.uid ?? ''}
              ?narrow=${this.narrow}
              .locale=${this.locale}
            ></parley-thread>`
          : this.narrow
            ? nothing
            : html`<div class="placeholder">
                ${state.conversations.length > 0 ? t.pick : t.noConversations}
              </div>`
      }
    </div>`;
  }

  /** A chosen conversation takes the focus (in one-pane layouts the list it was chosen from is gone). */
  #openFromList(event: CustomEvent<ChatTarget>): void {
    void this.store?.open(event.detail);
    void this.updateComplete.then(() => this.renderRoot.querySelector('parley-thread')?.focus());
  }

  #withActive(run: (target: ChatTarget) => unknown): void {
    const active = this.state?.active;
    if (active) void run(active);
  }

  #back(): void {
    this.store?.close();
    void this.updateComplete.then(() => this.renderRoot.querySelector('parley-conversation-list')?.focus());
  }

  #onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.docked && this.open) {
      event.preventDefault();
      this.open = false;
    }
  }

  /** The store reports the interaction; the form learns how it stands from its thread's `submissions`. */
  #interact(event: CustomEvent<InteractDetail>): void {
    const { messageId, elementId, values } = event.detail;
    const message = this.store?.thread(this.state?.active)?.messages.find((m) => m.id === messageId);
    if (message) void this.store?.interact(message, elementId, values);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-chat': ParleyChat;
  }
}
