import { css, html, LitElement, nothing } from 'lit';
import { ENGLISH, type Locale } from './i18n.js';
import { sendIcon } from './icons.js';
import {
  insertMention,
  matchCandidates,
  mentionAt,
  type MentionCandidate,
  type MentionQuery,
} from './mentions.js';
import { base } from './theme.js';

const MAX_ROWS = 6;

/**
 * The message box: Enter sends, Shift+Enter starts a new line, `@` suggests people and agents to
 * mention (a combobox: arrows choose, Enter or Tab inserts, Escape closes).
 */
export class ParleyComposer extends LitElement {
  static override properties = {
    locale: { attribute: false },
    candidates: { attribute: false },
    text: { state: true },
    mention: { state: true },
    highlighted: { state: true },
  };

  static override styles = [
    base,
    css`
      :host {
        display: block;
        position: relative;
        padding: 8px 10px 10px;
        border-block-start: 1px solid var(--_border);
        background: var(--_bg);
      }
      .box {
        display: flex;
        align-items: flex-end;
        gap: 6px;
        padding: 4px 4px 4px 12px;
        border: 1px solid var(--_border);
        border-radius: 22px;
        background: var(--_surface);
      }
      .box:focus-within {
        border-color: var(--_accent);
        box-shadow: 0 0 0 1px var(--_accent);
      }
      textarea:focus-visible {
        outline: none;
      }
      textarea {
        flex: 1;
        min-inline-size: 0;
        padding: 7px 0;
        border: 0;
        background: transparent;
        resize: none;
        line-height: 1.4;
      }
      .send {
        background: var(--_accent);
        color: var(--_on-accent);
      }
      .send:hover {
        background: var(--_accent);
        filter: brightness(1.1);
      }
      .send:disabled {
        opacity: 0.45;
        cursor: default;
      }
      [role='listbox'] {
        position: absolute;
        inset-inline: 10px;
        inset-block-end: calc(100% - 4px);
        margin: 0;
        padding: 4px;
        list-style: none;
        max-block-size: 220px;
        overflow-y: auto;
        border: 1px solid var(--_border);
        border-radius: 12px;
        background: var(--_bg);
        box-shadow: var(--_shadow);
      }
      [role='option'] {
        display: flex;
        align-items: center;
        gap: 8px;
        padding: 6px 8px;
        border-radius: 8px;
        cursor: pointer;
      }
      [role='option'][aria-selected='true'] {
        background: color-mix(in srgb, var(--_accent) 14%, transparent);
      }
      .uid {
        color: var(--_muted);
        font-size: 0.85em;
      }
      .tag {
        margin-inline-start: auto;
        padding: 0 6px;
        border-radius: 6px;
        background: var(--_surface);
        font-size: 0.75em;
        color: var(--_muted);
      }
      @media (max-width: 480px) {
        textarea {
          font-size: 16px;
        }
      }
    `,
  ];

  declare locale: Locale;
  declare candidates: MentionCandidate[];
  declare text: string;
  declare mention: MentionQuery | undefined;
  declare highlighted: number;

  constructor() {
    super();
    this.locale = ENGLISH;
    this.candidates = [];
    this.text = '';
    this.highlighted = 0;
  }

  get #textarea(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  override focus(options?: FocusOptions): void {
    void this.updateComplete.then(() => this.#textarea?.focus(options));
  }

  #matches(): MentionCandidate[] {
    return this.mention ? matchCandidates(this.candidates, this.mention.query) : [];
  }

  override render() {
    const t = this.locale.strings;
    const matches = this.#matches();
    const open = matches.length > 0;
    const active = open ? `mention-${Math.min(this.highlighted, matches.length - 1)}` : undefined;
    const rows = Math.min(MAX_ROWS, this.text.split('\n').length);
    return html`
      ${
        open
          ? html`<ul id="mentions" role="listbox" aria-label=${t.mentions}>
              ${matches.map(
                (candidate, index) =>
                  html`<li
                    id="mention-${index}"
                    role="option"
                    aria-selected=${index === Math.min(this.highlighted, matches.length - 1) ? 'true' : 'false'}
                    @mousedown=${(e: Event) => e.preventDefault()}
                    @click=${() => this.#choose(candidate)}
                  >
                    <parley-avatar small .name=${candidate.name} .uid=${candidate.uid}></parley-avatar>
                    <span>${candidate.name} <span class="uid">@${candidate.uid}</span></span>
                    ${candidate.agent ? html`<span class="tag">${t.agent}</span>` : nothing}
                  </li>`,
              )}
            </ul>`
          : nothing
      }
      <div class="box">
        <textarea
          rows=${rows}
          aria-label=${t.composer}
          placeholder=${t.placeholder}
          role="combobox"
          aria-autocomplete="list"
          aria-haspopup="listbox"
          aria-expanded=${open ? 'true' : 'false'}
          aria-controls=${open ? 'mentions' : nothing}
          aria-activedescendant=${active ?? nothing}
          enterkeyhint="send"
          .value=${this.text}
          @input=${this.#onInput}
          @keydown=${this.#onKeydown}
          @click=${this.#updateMention}
          @blur=${() => (this.mention = undefined)}
        ></textarea>
        <button
          class="icon-button send"
          type="button"
          aria-label=${t.send}
          ?disabled=${this.text.trim() === ''}
          @click=${this.#send}
        >
          ${sendIcon}
        </button>
      </div>
    `;
  }

  #onInput(event: Event): void {
    this.text = (event.target as HTMLTextAreaElement).value;
    this.#updateMention();
    this.dispatchEvent(new CustomEvent('parley-typing', { bubbles: true, composed: true }));
  }

  #updateMention(): void {
    const textarea = this.#textarea;
    if (!textarea) return;
    const found = mentionAt(textarea.value, textarea.selectionStart);
    if (found?.query !== this.mention?.query || found?.start !== this.mention?.start) this.highlighted = 0;
    this.mention = found;
    if (found && this.candidates.length === 0) {
      this.dispatchEvent(new CustomEvent('parley-mention-candidates', { bubbles: true, composed: true }));
    }
  }

  #onKeydown(event: KeyboardEvent): void {
    const matches = this.#matches();
    if (matches.length > 0) {
      const last = matches.length - 1;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const current = Math.min(this.highlighted, last);
        this.highlighted =
          event.key === 'ArrowDown' ? (current + 1) % matches.length : (current + last) % matches.length;
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        this.#choose(matches[Math.min(this.highlighted, last)]!);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.mention = undefined;
        return;
      }
    }
    // Enter while composing with an input method confirms the composition, it does not send.
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.#send();
    }
  }

  #choose(candidate: MentionCandidate): void {
    const textarea = this.#textarea;
    if (!textarea || !this.mention) return;
    const next = insertMention(textarea.value, this.mention, textarea.selectionStart, candidate.uid);
    this.text = next.text;
    this.mention = undefined;
    void this.updateComplete.then(() => {
      textarea.focus();
      textarea.setSelectionRange(next.caret, next.caret);
    });
  }

  #send(): void {
    const text = this.text.trim();
    if (text === '') return;
    this.dispatchEvent(new CustomEvent('parley-send', { detail: text, bubbles: true, composed: true }));
    this.text = '';
    this.mention = undefined;
    this.#textarea?.focus();
  }
}
