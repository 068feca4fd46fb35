import { html, LitElement, nothing } from 'lit';
import { ENGLISH, type Locale } from './i18n.js';
import { attachIcon, sendIcon } from './icons.js';
import {
  insertMention,
  matchCandidates,
  mentionAt,
  type MentionCandidate,
  type MentionQuery,
} from './mentions.js';
import { composerStyles } from './parley-composer.styles.js';
import type { Upload } from './state.js';

const MAX_ROWS = 6;

/**
 * The message box: Enter sends, Shift+Enter starts a new line, `@` suggests people and agents to
 * mention (a combobox: arrows choose, Enter or Tab inserts, Escape closes). Files come by the attach
 * button or a paste; they wait in <parley-attachments> (loaded on first use) until sent.
 */
export class ParleyComposer extends LitElement {
  static override properties = {
    locale: { attribute: false },
    candidates: { attribute: false },
    drafts: { attribute: false },
    uploads: { attribute: false },
    text: { state: true },
    mention: { state: true },
    highlighted: { state: true },
  };

  static override styles = composerStyles;

  declare locale: Locale;
  declare candidates: MentionCandidate[];
  /** Files chosen to send and files on their way; without them (a thread's replies) nothing can be attached. */
  declare drafts: File[] | undefined;
  declare uploads: Upload[] | undefined;
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
      ${
        this.drafts?.length || this.uploads?.length
          ? html`<parley-attachments
              .drafts=${this.drafts}
              .uploads=${this.uploads}
              .locale=${this.locale}
              @parley-unattach=${() => this.focus()}
              @parley-cancel-upload=${() => this.focus()}
            ></parley-attachments>`
          : nothing
      }
      <div class="box">
        ${
          this.drafts
            ? html`<input
                  type="file"
                  multiple
                  hidden
                  @change=${(event: Event) => {
                    const input = event.target as HTMLInputElement;
                    this.#attach([...(input.files ?? [])]);
                    input.value = '';
                  }}
                /><button
                  class="icon-button"
                  type="button"
                  aria-label=${t.attach}
                  @click=${() => this.renderRoot.querySelector('input')?.click()}
                >
                  ${attachIcon}
                </button>`
            : nothing
        }
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
          @paste=${this.#onPaste}
          @blur=${() => (this.mention = undefined)}
        ></textarea>
        <button
          class="icon-button send"
          type="button"
          aria-label=${t.send}
          ?disabled=${this.text.trim() === '' && !this.drafts?.length}
          @click=${this.#send}
        >
          ${sendIcon}
        </button>
      </div>
    `;
  }

  /** Pasted files (a screenshot, files copied in a file manager) are attached; pasted text is typed. */
  #onPaste(event: ClipboardEvent): void {
    const files = [...(event.clipboardData?.files ?? [])];
    if (!this.drafts || files.length === 0) return;
    event.preventDefault();
    this.#attach(files);
  }

  #attach(files: File[]): void {
    if (files.length > 0) this.#emit('parley-attach', files);
  }

  #emit(type: string, detail?: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }

  #onInput(event: Event): void {
    this.text = (event.target as HTMLTextAreaElement).value;
    this.#updateMention();
    this.#emit('parley-typing');
  }

  #updateMention(): void {
    const textarea = this.#textarea;
    if (!textarea) return;
    const found = mentionAt(textarea.value, textarea.selectionStart);
    if (found?.query !== this.mention?.query || found?.start !== this.mention?.start) this.highlighted = 0;
    this.mention = found;
    if (found && this.candidates.length === 0) {
      this.#emit('parley-mention-candidates');
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
    if (this.drafts?.length) this.#emit('parley-send-attached');
    if (text === '') return;
    this.#emit('parley-send', text);
    this.text = '';
    this.mention = undefined;
    this.#textarea?.focus();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-composer': ParleyComposer;
  }
}
