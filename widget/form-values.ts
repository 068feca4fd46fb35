import { isFilledValue, type FormValues } from '../shared/interactive-values.js';
import type { DateTimeElement, FormElement, InteractiveData } from '../shared/interactive.js';
import { format, type Strings } from './i18n.js';

/**
 * The values of an interactive form in the browser: defaults, client-side checks of what the user
 * entered (required fields, line limits, date bounds), and the interaction goal. The service checks
 * again; these checks exist so the user learns what to fix before anything is sent.
 */

export type InputField = Exclude<FormElement, { elementType: 'button' }>;

export function inputFields(data: InteractiveData): InputField[] {
  return data.formFields.filter((field): field is InputField => field.elementType !== 'button');
}

const DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?)?$/;
const TIME = /^(\d{2}:\d{2})(:\d{2})?$/;

export type DateInputType = 'date' | 'time' | 'datetime-local';

export function dateInputType(element: DateTimeElement): DateInputType {
  return element.mode === 'dateTime' ? 'datetime-local' : element.mode;
}

/**
 * A bound, default or entered value in the form a date/time input uses (`2024-05-01`,
 * `2024-05-01T09:30`, `09:30`), or undefined when the text is not a value of that mode.
 */
export function toInputValue(text: string, mode: DateTimeElement['mode']): string | undefined {
  if (mode === 'time') {
    const time = TIME.exec(text);
    return time ? `${time[1]}${time[2] ?? ''}` : undefined;
  }
  const date = DATE.exec(text);
  if (!date) return undefined;
  if (mode === 'date') return date[1];
  return `${date[1]}T${date[2] ?? '00:00'}${date[3] ?? ''}`;
}

/** Seconds appended where missing, so input values of one mode compare as strings. */
function comparable(value: string, mode: DateTimeElement['mode']): string {
  if (mode === 'date') return value;
  return /:\d{2}:\d{2}$/.test(value) ? value : `${value}:00`;
}

export function initialValues(data: InteractiveData): FormValues {
  const values: FormValues = {};
  for (const field of inputFields(data)) {
    if (field.elementType === 'checkbox') values[field.elementId] = [...(field.defaultValue ?? [])];
    else if (field.elementType === 'dateTime') {
      const preset =
        typeof field.defaultValue === 'string' ? toInputValue(field.defaultValue, field.mode) : undefined;
      values[field.elementId] = preset ?? '';
    } else values[field.elementId] = field.defaultValue ?? '';
  }
  return values;
}

/** The values the user gave, without empty answers of optional fields (the service checks what is sent). */
export function filledValues(values: FormValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => isFilledValue(value)));
}

/** What is wrong with each field, by element id; an empty object when the form can be submitted. */
export function validateForm(
  data: InteractiveData,
  values: FormValues,
  strings: Strings,
): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of inputFields(data)) {
    const value = values[field.elementId];
    if (!isFilledValue(value)) {
      if (field.optional !== true) problems[field.elementId] = strings.required;
      continue;
    }
    const problem = fieldProblem(field, value!, strings);
    if (problem) problems[field.elementId] = problem;
  }
  return problems;
}

function fieldProblem(field: InputField, value: string | string[], strings: Strings): string | undefined {
  switch (field.elementType) {
    case 'textInput': {
      const lines = String(value).split('\n').length;
      const max = field.maxLines ?? 1;
      return lines > max ? format(strings.tooManyLines, { count: max }) : undefined;
    }
    case 'dropdown':
    case 'singleSelect':
      return field.options.some((option) => option.value === value) ? undefined : strings.required;
    case 'checkbox': {
      const known = new Set(field.options.map((option) => option.value));
      return ([] as string[]).concat(value).every((item) => known.has(item)) ? undefined : strings.required;
    }
    case 'dateTime': {
      const entered = toInputValue(String(value), field.mode);
      if (!entered) return strings.required;
      const from = field.from === undefined ? undefined : toInputValue(field.from, field.mode);
      const to = field.to === undefined ? undefined : toInputValue(field.to, field.mode);
      if (from && comparable(entered, field.mode) < comparable(from, field.mode)) {
        return format(strings.tooEarly, { bound: field.from! });
      }
      if (to && comparable(entered, field.mode) > comparable(to, field.mode)) {
        return format(strings.tooLate, { bound: field.to! });
      }
      return undefined;
    }
  }
}
