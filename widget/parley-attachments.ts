import { html, LitElement, nothing } from 'lit';
import { ATTACH_STRINGS } from './attach-strings.js';
import { closeIcon } from './icons.js';
import { ENGLISH, format, formatBytes, type Locale } from './i18n.js';
import { attachmentsStyles } from './parley-attachments.styles.js';
import type { Upload } from './state.js';

/**
 * The files of the composer before and while they are sent: each chosen file with a preview (an
 * image's picture, else its name and size) and a button that removes it; each upload with its
 * progress and a button that cancels it, or the reason the service refused it. Loaded with the code
 * for sending files (`attach.ts`); the composer renders it once files are chosen.
 */
export class ParleyAttachments extends LitElement {
  static override properties = {
    drafts: { attribute: false },
    uploads: { attribute: false },
    locale: { attribute: false },
  };

  static override styles = attachmentsStyles;

  declare drafts: File[];
  declare uploads: Upload[];
  declare locale: Locale;
  /** Object URLs of the images' previews, released when their file leaves. */
  #previews = new Map<File, string>();

  constructor() {
    super();
    this.drafts = [];
    this.uploads = [];
    this.locale = ENGLISH;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const url of this.#previews.values()) URL.revokeObjectURL(url);
    this.#previews.clear();
  }

  protected override updated(): void {
    for (const [file, url] of this.#previews) {
      if (this.drafts.includes(file)) continue;
      URL.revokeObjectURL(url);
      this.#previews.delete(file);
    }
  }

  override render() {
    const t = ATTACH_STRINGS[this.locale.language];
    const language = this.locale.language;
    return html`
      ${
        this.drafts.length > 0
          ? html`<ul aria-label=${t.toSend}>
              ${this.drafts.map(
                (file, index) =>
                  html`<li>
                    ${file.type.startsWith('image/') ? html`<img src=${this.#preview(file)} alt="" />` : nothing}
                    <span>${file.name}</span>
                    <span class="size">${formatBytes(file.size, language)}</span>
                    <button
                      class="icon-button"
                      type="button"
                      aria-label=${format(t.remove, { name: file.name })}
                      @click=${() => this.#emit('parley-unattach', index)}
                    >
                      ${closeIcon}
                    </button>
                  </li>`,
              )}
            </ul>`
          : nothing
      }
      ${this.uploads.map((upload) => {
        const names = upload.files.map((file) => file.name).join(', ');
        return html`<div class="upload">
          ${
            upload.error
              ? html`<p role="alert">${this.#reason(upload, names)}</p>`
              : html`<span>${names}</span>
                  <progress
                    max="100"
                    value=${Math.round(upload.progress * 100)}
                    aria-label=${format(t.sending, { names })}
                  ></progress>`
          }
          <button
            class="icon-button"
            type="button"
            aria-label=${upload.error ? t.dismiss : format(t.cancel, { names })}
            @click=${() => this.#emit('parley-cancel-upload', upload.muid)}
          >
            ${closeIcon}
          </button>
        </div>`;
      })}
    `;
  }

  /** The service's refusal in the user's words: the limit a too large upload broke, the file of a type not accepted. */
  #reason({ error, files }: Upload, names: string): string {
    const t = ATTACH_STRINGS[this.locale.language];
    const { code, message, details } = error!;
    if (code === 'ERR_FILE_TOO_LARGE' && typeof details.maxBytes === 'number')
      return format(t.tooLarge, { max: formatBytes(details.maxBytes, this.locale.language), names });
    if (code === 'ERR_FILE_TYPE_NOT_ALLOWED') {
      const index = Number(String(details.field).split('.')[1]);
      return format(t.typeNotAllowed, { name: files[index]?.name ?? names });
    }
    return format(t.failed, { reason: message });
  }

  #preview(file: File): string {
    let url = this.#previews.get(file);
    if (!url) this.#previews.set(file, (url = URL.createObjectURL(file)));
    return url;
  }

  /** Fires `type`; the composer, whose child this is, moves the focus off the button that goes away. */
  #emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-attachments': ParleyAttachments;
  }
}
