import { html, LitElement, nothing, type TemplateResult } from 'lit';
import type { FormValues, Interaction } from '../shared/chat-client/index.js';
import { goalCompleted } from '../shared/interactive-values.js';
import type { ButtonElement, InteractiveFormData } from '../shared/interactive.js';
import {
  dateInputType,
  filledValues,
  initialValues,
  toInputValue,
  validateForm,
  type InputField,
} from './form-values.js';
import { ENGLISH, format, type Locale } from './i18n.js';
import { checkIcon } from './icons.js';
import { formStyles } from './parley-form.styles.js';
import { IDLE_SUBMISSION, type Submission } from './state.js';

/** The detail of `parley-interact`: a button pressed or the form submitted, with the values. */
export interface InteractDetail {
  messageId: string;
  elementId: string;
  values?: FormValues;
}

function navigationUrl(button: ButtonElement): string | undefined {
  const action = button.action;
  return action?.actionType === 'urlNavigation' && /^https?:\/\//i.test(action.url) ? action.url : undefined;
}

/**
 * An interactive form message: every element type of the shared schema, required-field checks
 * before submitting, the submitted state (from the interactions stored on the message, so it
 * survives a reload), `disableAfterInteracted`, and the interaction goal's completion.
 *
 * It fires `parley-interact` and does no request itself: its owner reports the interaction and
 * sets `submission` to how that stands (pending: buttons disabled; failed: the reason shown; done:
 * the element counts as interacted).
 */
export class ParleyForm extends LitElement {
  static override properties = {
    data: { attribute: false },
    messageId: {},
    interactions: { attribute: false },
    locale: { attribute: false },
    submission: { attribute: false },
    values: { state: true },
    problems: { state: true },
  };

  static override styles = formStyles;

  declare data: InteractiveFormData;
  declare messageId: string;
  declare interactions: Interaction[];
  declare locale: Locale;
  declare submission: Submission;
  declare values: FormValues;
  declare problems: Record<string, string>;
  #valuesOf: InteractiveFormData | undefined;

  constructor() {
    super();
    this.interactions = [];
    this.locale = ENGLISH;
    this.submission = IDLE_SUBMISSION;
    this.values = {};
    this.problems = {};
  }

  protected override willUpdate(): void {
    if (this.data && this.#valuesOf !== this.data) {
      this.#valuesOf = this.data;
      this.values = initialValues(this.data.interactiveData);
    }
  }

  #interacted(elementId: string): boolean {
    const { submission } = this;
    return (
      (submission.state === 'done' && submission.elementId === elementId) ||
      this.interactions.some((interaction) => interaction.elementId === elementId)
    );
  }

  /** A button is done once pressed if it says so; a submitted form that may not be resubmitted is read-only. */
  #buttonDisabled(button: ButtonElement): boolean {
    return (
      this.submission.state === 'pending' ||
      (button.disableAfterInteracted === true && this.#interacted(button.elementId))
    );
  }

  override render() {
    if (!this.data?.interactiveData) return nothing;
    const t = this.locale.strings;
    const form = this.data.interactiveData;
    const submit = form.submitElement;
    const submitted = this.#interacted(submit.elementId);
    const locked = submitted && submit.disableAfterInteracted === true;
    const completed = goalCompleted(this.data.interactionGoal, this.interactions);
    const buttons = form.formFields.filter((field): field is ButtonElement => field.elementType === 'button');
    return html`<form novalidate aria-label=${form.title} @submit=${this.#onSubmit}>
      <h3>${form.title}</h3>
      ${form.formFields.map((field) => (field.elementType === 'button' ? nothing : this.#field(field, locked)))}
      <div class="buttons">
        ${buttons.map(
          (button) =>
            html`<button
              type="button"
              ?disabled=${this.#buttonDisabled(button)}
              @click=${() => this.#report(button)}
            >
              ${button.buttonText}${navigationUrl(button) ? html`<span class="sr-only"> ${t.newTab}</span>` : nothing}
            </button>`,
        )}
        <button type="submit" class="primary" ?disabled=${this.#buttonDisabled(submit)}>
          ${submit.buttonText}${navigationUrl(submit) ? html`<span class="sr-only"> ${t.newTab}</span>` : nothing}
        </button>
      </div>
      <div role="status">
        ${
          completed
            ? html`<p class="status">${checkIcon}${form.goalCompletionText ?? t.completed}</p>`
            : submitted
              ? html`<p class="status">${checkIcon}${t.submitted}</p>`
              : nothing
        }
        ${
          this.submission.state === 'failed'
            ? html`<p class="error">${format(t.submitFailed, { reason: this.submission.message })}</p>`
            : nothing
        }
      </div>
    </form>`;
  }

  #field(field: InputField, locked: boolean): TemplateResult {
    const id = `f-${field.elementId}`;
    const problem = this.problems[field.elementId];
    const describedBy = problem ? `${id}-error` : nothing;
    const invalid = problem ? 'true' : 'false';
    const value = this.values[field.elementId];
    const set = (next: string | string[]) => {
      this.values = { ...this.values, [field.elementId]: next };
      if (this.problems[field.elementId]) {
        const { [field.elementId]: _fixed, ...rest } = this.problems;
        this.problems = rest;
      }
    };
    const required = field.optional !== true;
    const error = problem ? html`<p class="error" id="${id}-error">${problem}</p>` : nothing;
    switch (field.elementType) {
      case 'textInput': {
        const lines = field.maxLines ?? 1;
        const placeholder = field.placeholder?.text ?? nothing;
        const input =
          lines > 1
            ? html`<textarea
                id=${id}
                rows=${Math.min(lines, 6)}
                .value=${String(value ?? '')}
                placeholder=${placeholder}
                ?required=${required}
                ?disabled=${locked}
                aria-invalid=${invalid}
                aria-describedby=${describedBy}
                @input=${(e: Event) => set((e.target as HTMLTextAreaElement).value)}
              ></textarea>`
            : html`<input
                id=${id}
                type="text"
                .value=${String(value ?? '')}
                placeholder=${placeholder}
                ?required=${required}
                ?disabled=${locked}
                aria-invalid=${invalid}
                aria-describedby=${describedBy}
                @input=${(e: Event) => set((e.target as HTMLInputElement).value)}
              />`;
        return html`<div class="field"><label for=${id}>${field.label}</label>${input}${error}</div>`;
      }
      case 'dropdown':
        return html`<div class="field">
          <label for=${id}>${field.label}</label>
          <select
            id=${id}
            ?required=${required}
            ?disabled=${locked}
            aria-invalid=${invalid}
            aria-describedby=${describedBy}
            @change=${(e: Event) => set((e.target as HTMLSelectElement).value)}
          >
            <option value="" ?selected=${!value}>${this.locale.strings.choose}</option>
            ${field.options.map((option) => html`<option value=${option.value} ?selected=${value === option.value}>${option.label}</option>`)}
          </select>
          ${error}
        </div>`;
      case 'singleSelect':
      case 'checkbox': {
        const multiple = field.elementType === 'checkbox';
        const chosen = ([] as string[]).concat(value ?? []);
        return html`<fieldset
          class="field"
          aria-invalid=${invalid}
          aria-describedby=${describedBy}
          ?disabled=${locked}
        >
          <legend>${field.label}</legend>
          ${field.options.map(
            (option) =>
              html`<label class="choice">
                <input
                  type=${multiple ? 'checkbox' : 'radio'}
                  name=${id}
                  value=${option.value}
                  .checked=${chosen.includes(option.value)}
                  @change=${(e: Event) => {
                    const on = (e.target as HTMLInputElement).checked;
                    if (!multiple) set(option.value);
                    else set(on ? [...chosen, option.value] : chosen.filter((v) => v !== option.value));
                  }}
                />${option.label}
              </label>`,
          )}
          ${error}
        </fieldset>`;
      }
      case 'dateTime': {
        const bound = (text: string | undefined) =>
          text === undefined ? nothing : (toInputValue(text, field.mode) ?? nothing);
        const zone = field.timezoneCode;
        return html`<div class="field">
          <label for=${id}>${field.label}</label>
          <input
            id=${id}
            type=${dateInputType(field)}
            .value=${String(value ?? '')}
            min=${bound(field.from)}
            max=${bound(field.to)}
            ?required=${required}
            ?disabled=${locked}
            aria-invalid=${invalid}
            aria-describedby=${zone ? `${id}-zone ${problem ? `${id}-error` : ''}`.trim() : describedBy}
            @input=${(e: Event) => set((e.target as HTMLInputElement).value)}
          />
          ${zone ? html`<span class="hint" id="${id}-zone">${format(this.locale.strings.timeZone, { zone })}</span>` : nothing}
          ${error}
        </div>`;
      }
    }
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    const form = this.data.interactiveData;
    this.problems = validateForm(form, this.values, this.locale.strings);
    const first = Object.keys(this.problems)[0];
    if (first !== undefined) {
      void this.updateComplete.then(() =>
        this.renderRoot
          .querySelector<HTMLElement>(`#f-${CSS.escape(first)}, [name="f-${CSS.escape(first)}"]`)
          ?.focus(),
      );
      return;
    }
    this.#report(form.submitElement, filledValues(this.values));
  }

  #report(button: ButtonElement, values?: FormValues): void {
    const url = navigationUrl(button);
    // rel=noopener semantics: the opened page gets no handle on this one.
    if (url) globalThis.open?.(url, '_blank', 'noopener,noreferrer');
    const detail: InteractDetail = {
      messageId: this.messageId,
      elementId: button.elementId,
      ...(values ? { values } : {}),
    };
    this.dispatchEvent(new CustomEvent('parley-interact', { detail, bubbles: true, composed: true }));
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'parley-form': ParleyForm;
  }
}
