import { html, LitElement } from 'lit';
import { format, ENGLISH, type Locale } from './i18n.js';
import { chatIcon, closeIcon } from './icons.js';
import { launcherStyles } from './parley-launcher.styles.js';

/** The round button of the docked layout that opens and closes the chat window, with the unread count. */
export class ParleyLauncher extends LitElement {
  static override properties = {
    open: { type: Boolean, reflect: true },
    unread: { type: Number },
    locale: { attribute: false },
  };

  static override styles = launcherStyles;

  declare open: boolean;
  declare unread: number;
  declare locale: Locale;

  constructor() {
    super();
    this.open = false;
    this.unread = 0;
    this.locale = ENGLISH;
  }

  override focus(options?: FocusOptions): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector('button')?.focus(options));
  }

  override render() {
    const t = this.locale.strings;
    const label = this.open ? t.closeChat : t.openChat;
    const unread = this.unread > 0 && !this.open ? format(t.unread, { count: this.unread }) : '';
    return html`<button
      type="button"
      aria-label=${unread ? `${label}, ${unread}` : label}
      aria-expanded=${this.open ? 'true' : 'false'}
      @click=${() => this.dispatchEvent(new CustomEvent('parley-toggle', { bubbles: true, composed: true }))}
    >
      ${this.open ? closeIcon : chatIcon}
      ${unread ? html`<span class="badge" aria-hidden="true">${this.unread > 99 ? '99+' : this.unread}</span>` : ''}
    </button>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-launcher': ParleyLauncher;
  }
}
