import { z } from 'zod';
import {
  DATE_TIME_MODES,
  isIanaTimeZone,
  parseDateTimeValue,
  type DateTimeMode,
} from './interactive-values.js';

/**
 * Contracts of interactive form messages (`category: interactive`, `type: form`): the shape of the
 * message's `data`, as service interface part A and CometChat's UI Kits send it. Cross-field rules
 * report issues whose path points at the offending field, so `zodErrorToEnvelope` names it.
 */

/** Zod-free, so the widget can use them too; re-exported here for this module's importers. */
export {
  DATE_TIME_MODES,
  isIanaTimeZone,
  parseDateTimeValue,
  type DateTimeMode,
} from './interactive-values.js';

/** Element ids are what `interactionGoal` and `PATCH /messages/{id}/interacted` refer to. */
export const ElementId = z
  .string()
  .min(1, 'an element id must not be empty')
  .max(100, 'an element id is at most 100 characters');

/** Only http(s): a form is rendered in other people's browsers, so `javascript:` and `data:` never pass. */
export const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** RFC 9110 token characters; values must not carry CR, LF or NUL (no header injection). */
const HeaderName = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid HTTP header name');
const HeaderValue = z.string().regex(/^[^\r\n\0]*$/, 'a header value must not contain CR, LF or NUL');

export const UrlNavigationAction = z.looseObject({
  actionType: z.literal('urlNavigation'),
  url: HttpUrl,
});
export type UrlNavigationAction = z.infer<typeof UrlNavigationAction>;

export const ApiAction = z.looseObject({
  actionType: z.literal('apiAction'),
  url: HttpUrl,
  method: z
    .string()
    .toUpperCase()
    .pipe(z.enum(HTTP_METHODS, { error: `method must be one of ${HTTP_METHODS.join(', ')}` })),
  /** The body the action posts, typically a message body; free-form. */
  payload: z.record(z.string(), z.unknown()).optional(),
  headers: z.record(HeaderName, HeaderValue).optional(),
  /** The payload key under which the form's values are sent. */
  dataKey: z.string().min(1).optional(),
});
export type ApiAction = z.infer<typeof ApiAction>;

export const ButtonAction = z.discriminatedUnion('actionType', [UrlNavigationAction, ApiAction], {
  error: 'actionType must be urlNavigation or apiAction',
});
export type ButtonAction = z.infer<typeof ButtonAction>;

export const Placeholder = z.looseObject({ text: z.string() });

export const SelectOption = z.looseObject({
  value: z.string().min(1, 'an option value must not be empty'),
  label: z.string(),
});
export type SelectOption = z.infer<typeof SelectOption>;

const Options = z.array(SelectOption).min(1, 'give at least one option');

/** Fields every form element carries besides its own. */
const commonFields = {
  elementId: ElementId,
  optional: z.boolean().optional(),
};

/** Option values must be distinct, or a default or an answer could not say which option it means. */
function checkOptionValuesUnique(options: SelectOption[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  options.forEach((option, index) => {
    if (seen.has(option.value)) {
      ctx.addIssue({
        code: 'custom',
        message: `option value "${option.value}" is used twice`,
        path: ['options', index, 'value'],
      });
    }
    seen.add(option.value);
  });
}

function optionValues(options: SelectOption[]): string {
  return options.map((option) => option.value).join(', ');
}

export const TextInputElement = z.looseObject({
  ...commonFields,
  elementType: z.literal('textInput'),
  label: z.string(),
  maxLines: z.int().min(1, 'maxLines is at least 1').optional(),
  placeholder: Placeholder.optional(),
  defaultValue: z.string().optional(),
});
export type TextInputElement = z.infer<typeof TextInputElement>;

/** A dropdown and a single select differ only in how they are drawn. */
function singleChoiceElement<T extends 'dropdown' | 'singleSelect'>(elementType: T) {
  return z
    .looseObject({
      ...commonFields,
      elementType: z.literal(elementType),
      label: z.string(),
      options: Options,
      defaultValue: z.string().optional(),
    })
    .superRefine((element, ctx) => {
      checkOptionValuesUnique(element.options, ctx);
      if (
        element.defaultValue !== undefined &&
        !element.options.some((o) => o.value === element.defaultValue)
      ) {
        ctx.addIssue({
          code: 'custom',
          message: `defaultValue must be one of the option values (${optionValues(element.options)})`,
          path: ['defaultValue'],
        });
      }
    });
}

export const DropdownElement = singleChoiceElement('dropdown');
export type DropdownElement = z.infer<typeof DropdownElement>;

export const SingleSelectElement = singleChoiceElement('singleSelect');
export type SingleSelectElement = z.infer<typeof SingleSelectElement>;

export const CheckboxElement = z
  .looseObject({
    ...commonFields,
    elementType: z.literal('checkbox'),
    label: z.string(),
    options: Options,
    defaultValue: z.array(z.string()).optional(),
  })
  .superRefine((element, ctx) => {
    checkOptionValuesUnique(element.options, ctx);
    element.defaultValue?.forEach((value, index) => {
      if (!element.options.some((o) => o.value === value)) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" is not one of the option values (${optionValues(element.options)})`,
          path: ['defaultValue', index],
        });
      }
    });
  });
export type CheckboxElement = z.infer<typeof CheckboxElement>;

export const TimeZoneName = z
  .string()
  .refine(isIanaTimeZone, 'must be an IANA time zone name such as Europe/Paris');

const BOUND_FORMATS: Record<DateTimeMode, string> = {
  date: 'YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss]',
  dateTime: 'YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss]',
  time: 'HH:mm[:ss]',
};

export const DateTimeElement = z
  .looseObject({
    ...commonFields,
    elementType: z.literal('dateTime'),
    label: z.string(),
    mode: z.enum(DATE_TIME_MODES, { error: `mode must be one of ${DATE_TIME_MODES.join(', ')}` }),
    /** Display pattern with PHP-style tokens (`Y-m-d H:i:ss`); the widget renders it, the server keeps it. */
    dateTimeFormat: z.string().min(1).optional(),
    timezoneCode: TimeZoneName.optional(),
    from: z.string().optional(),
    /** Present in the reference sample next to `from`; validated like it, otherwise unused. */
    from1: z.string().optional(),
    to: z.string().optional(),
    /** The reference sample sends a boolean; a string is a preset value within the bounds. */
    defaultValue: z.union([z.boolean(), z.string()]).optional(),
    maxLines: z.int().min(1, 'maxLines is at least 1').optional(),
    placeholder: Placeholder.optional(),
  })
  .superRefine((element, ctx) => {
    const parsed: Partial<Record<'from' | 'from1' | 'to' | 'defaultValue', number>> = {};
    for (const key of ['from', 'from1', 'to', 'defaultValue'] as const) {
      const text = element[key];
      if (typeof text !== 'string') continue;
      const value = parseDateTimeValue(text, element.mode);
      if (value === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${text}" is not a valid ${element.mode} (${BOUND_FORMATS[element.mode]})`,
          path: [key],
        });
      } else {
        parsed[key] = value;
      }
    }
    const { from, to, defaultValue } = parsed;
    if (from !== undefined && to !== undefined && to < from) {
      ctx.addIssue({ code: 'custom', message: 'to must not be before from', path: ['to'] });
    }
    if (
      defaultValue !== undefined &&
      ((from !== undefined && defaultValue < from) || (to !== undefined && defaultValue > to))
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'defaultValue must lie between from and to',
        path: ['defaultValue'],
      });
    }
  });
export type DateTimeElement = z.infer<typeof DateTimeElement>;

export const ButtonElement = z.looseObject({
  ...commonFields,
  elementType: z.literal('button'),
  label: z.string().optional(),
  buttonText: z.string(),
  disableAfterInteracted: z.boolean().optional(),
  /** Without an action, pressing the button only records the interaction. */
  action: ButtonAction.optional(),
});
export type ButtonElement = z.infer<typeof ButtonElement>;

export const ELEMENT_TYPES = [
  'textInput',
  'dropdown',
  'checkbox',
  'singleSelect',
  'dateTime',
  'button',
] as const;

export const FormElement = z.discriminatedUnion(
  'elementType',
  [TextInputElement, DropdownElement, CheckboxElement, SingleSelectElement, DateTimeElement, ButtonElement],
  { error: `elementType must be one of ${ELEMENT_TYPES.join(', ')}` },
);
export type FormElement = z.infer<typeof FormElement>;

export const INTERACTION_GOAL_TYPES = ['allOf', 'anyOf', 'anyAction', 'none'] as const;

export const InteractionGoal = z
  .looseObject({
    type: z.enum(INTERACTION_GOAL_TYPES, {
      error: `interactionGoal.type must be one of ${INTERACTION_GOAL_TYPES.join(', ')}`,
    }),
    /** Ignored for anyAction and none, where the SDK sends `[]`. */
    elementIds: z.array(ElementId).default([]),
  })
  .superRefine((goal, ctx) => {
    if ((goal.type === 'allOf' || goal.type === 'anyOf') && goal.elementIds.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `an ${goal.type} goal needs at least one element id`,
        path: ['elementIds'],
      });
    }
  });
export type InteractionGoal = z.infer<typeof InteractionGoal>;

export const InteractiveData = z.looseObject({
  title: z.string(),
  formFields: z.array(FormElement),
  submitElement: ButtonElement,
  /** Text shown once the goal is met (UI Kit samples). */
  goalCompletionText: z.string().optional(),
});
export type InteractiveData = z.infer<typeof InteractiveData>;

export const InteractiveFormData = z
  .looseObject({
    interactionGoal: InteractionGoal.optional(),
    allowSenderInteraction: z.boolean().optional(),
    interactiveData: InteractiveData,
  })
  .superRefine((data, ctx) => {
    const { formFields, submitElement } = data.interactiveData;
    const elements: { elementId: string; path: (string | number)[] }[] = [
      ...formFields.map((field, index) => ({
        elementId: field.elementId,
        path: ['interactiveData', 'formFields', index, 'elementId'],
      })),
      { elementId: submitElement.elementId, path: ['interactiveData', 'submitElement', 'elementId'] },
    ];
    const known = new Set<string>();
    for (const { elementId, path } of elements) {
      if (known.has(elementId)) {
        ctx.addIssue({ code: 'custom', message: `element id "${elementId}" is used twice`, path });
      }
      known.add(elementId);
    }
    data.interactionGoal?.elementIds.forEach((elementId, index) => {
      if (!known.has(elementId)) {
        ctx.addIssue({
          code: 'custom',
          message: `no element of the form has the id "${elementId}"`,
          path: ['interactionGoal', 'elementIds', index],
        });
      }
    });
  });
export type InteractiveFormData = z.infer<typeof InteractiveFormData>;

/** What replaces a secret header value in messages sent to clients. */
export const REDACTED_HEADER_VALUE = '[redacted]';

/**
 * Headers whose values describe the request body, not who makes the call. A client needs them to
 * build the body; every other value (API keys, app ids, tokens, on-behalf-of UIDs) stays on the server.
 */
const PUBLIC_HEADERS = new Set(['accept', 'accept-language', 'content-language', 'content-type']);

/** The action as a client may see it: header names kept (so it knows they exist), secret values replaced. */
export function redactApiAction(action: ApiAction): ApiAction {
  if (!action.headers) return action;
  const headers = Object.fromEntries(
    Object.entries(action.headers).map(([name, value]) => [
      name,
      PUBLIC_HEADERS.has(name.toLowerCase()) ? value : REDACTED_HEADER_VALUE,
    ]),
  );
  return { ...action, headers };
}

function redactButton(button: ButtonElement): ButtonElement {
  return button.action?.actionType === 'apiAction'
    ? { ...button, action: redactApiAction(button.action) }
    : button;
}

/** The form with every button's apiAction redacted; the stored original is left untouched. */
export function redactInteractiveForm(data: InteractiveFormData): InteractiveFormData {
  const { formFields, submitElement } = data.interactiveData;
  return {
    ...data,
    interactiveData: {
      ...data.interactiveData,
      formFields: formFields.map((field) => (field.elementType === 'button' ? redactButton(field) : field)),
      submitElement: redactButton(submitElement),
    },
  };
}
