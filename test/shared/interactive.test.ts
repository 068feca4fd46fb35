import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { zodErrorToEnvelope } from '../../shared/errors.js';
import {
  ApiAction,
  FormElement,
  InteractiveFormData,
  REDACTED_HEADER_VALUE,
  isIanaTimeZone,
  parseDateTimeValue,
  redactApiAction,
  redactInteractiveForm,
} from '../../shared/interactive.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures are mutated freely

function fixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(`fixtures/messages/${name}`, import.meta.url), 'utf8')) as Json;
}

/** The `data` of the create-message sample of service-interface.md (with the dateTime element). */
function createFormData(): Json {
  return fixture('service-interface.create-form-message.request.json').data as Json;
}

/** Every field a rejection names, in the envelope's dotted form. */
function rejectedFields(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected the input to be rejected');
  const fields = zodErrorToEnvelope(result.error).error.details.fields as { field: string }[];
  return fields.map((problem) => problem.field);
}

describe('interactive form data: what it accepts', () => {
  it.each([
    [
      'the create-message sample of service-interface.md',
      'service-interface.create-form-message.request.json',
    ],
    ['the bot-message sample of service-interface.md', 'service-interface.bot-form-message.request.json'],
  ])('accepts %s', (_name, file) => {
    expect(InteractiveFormData.safeParse(fixture(file).data).success).toBe(true);
  });

  it('accepts a UI Kit form with a button among its fields, a completion text and a submit without action', () => {
    const form = {
      interactionGoal: { type: 'anyAction', elementIds: [] },
      interactiveData: {
        title: 'Society survey',
        goalCompletionText: 'Goal completed',
        formFields: [
          {
            elementType: 'textInput',
            elementId: 'element1',
            label: 'Name',
            maxLines: 1,
            optional: false,
            defaultValue: '',
          },
          {
            elementType: 'button',
            elementId: 'element9',
            buttonText: 'About us',
            disableAfterInteracted: false,
            action: { actionType: 'urlNavigation', url: 'https://www.cometchat.com/' },
          },
        ],
        submitElement: { elementType: 'button', elementId: 'submit', buttonText: 'Submit' },
      },
    };
    expect(InteractiveFormData.parse(form).interactiveData.goalCompletionText).toBe('Goal completed');
  });

  it('defaults interactionGoal.elementIds to [] when a goal of type none omits them', () => {
    const data = createFormData();
    data.interactionGoal = { type: 'none' };
    expect(InteractiveFormData.parse(data).interactionGoal?.elementIds).toEqual([]);
  });

  it('keeps members it does not know, so a newer client loses nothing', () => {
    const data = createFormData();
    data.interactiveData.formFields[0].style = { width: 'full' };
    const parsed = InteractiveFormData.parse(data);
    expect(parsed.interactiveData.formFields[0]).toMatchObject({ style: { width: 'full' } });
  });

  it('accepts a time-mode element with time bounds and a preset time inside them', () => {
    const element = {
      elementType: 'dateTime',
      elementId: 'slot',
      label: 'Slot',
      mode: 'time',
      from: '09:00',
      to: '17:30:00',
      defaultValue: '12:15',
      timezoneCode: 'Europe/Paris',
    };
    expect(FormElement.safeParse(element).success).toBe(true);
  });

  it('upper-cases the apiAction method', () => {
    const action = ApiAction.parse({
      actionType: 'apiAction',
      url: 'https://api.example.com/hook',
      method: 'patch',
    });
    expect(action.method).toBe('PATCH');
  });
});

describe('interactive form data: what it rejects, naming the field', () => {
  const submitAction = (data: Json): Json => data.interactiveData.submitElement.action as Json;
  const dateField = (data: Json): Json => data.interactiveData.formFields[4] as Json;

  it.each<{ name: string; mutate: (data: Json) => void; field: string }>([
    {
      name: 'two form fields with one id',
      mutate: (d) => (d.interactiveData.formFields[1].elementId = 'fullName'),
      field: 'interactiveData.formFields.1.elementId',
    },
    {
      name: 'a form field and the submit button with one id',
      mutate: (d) => (d.interactiveData.formFields[0].elementId = 'submitVisit'),
      field: 'interactiveData.submitElement.elementId',
    },
    {
      name: 'a goal naming an element the form lacks',
      mutate: (d) => (d.interactionGoal.elementIds = ['noSuchElement']),
      field: 'interactionGoal.elementIds.0',
    },
    {
      name: 'an unknown goal type',
      mutate: (d) => (d.interactionGoal.type = 'someOf'),
      field: 'interactionGoal.type',
    },
    {
      name: 'an allOf goal without element ids',
      mutate: (d) => (d.interactionGoal.elementIds = []),
      field: 'interactionGoal.elementIds',
    },
    {
      name: 'a dropdown default that is not an option',
      mutate: (d) => (d.interactiveData.formFields[1].defaultValue = 'london'),
      field: 'interactiveData.formFields.1.defaultValue',
    },
    {
      name: 'a single-select default that is not an option',
      mutate: (d) => (d.interactiveData.formFields[3].defaultValue = '3'),
      field: 'interactiveData.formFields.3.defaultValue',
    },
    {
      name: 'a checkbox default with a value that is not an option',
      mutate: (d) => (d.interactiveData.formFields[2].defaultValue = ['guide', 'spa']),
      field: 'interactiveData.formFields.2.defaultValue.1',
    },
    {
      name: 'two options with one value',
      mutate: (d) => (d.interactiveData.formFields[1].options[1].value = 'paris'),
      field: 'interactiveData.formFields.1.options.1.value',
    },
    {
      name: 'a dropdown without options',
      mutate: (d) => {
        d.interactiveData.formFields[1].options = [];
        delete d.interactiveData.formFields[1].defaultValue;
      },
      field: 'interactiveData.formFields.1.options',
    },
    {
      name: 'a javascript: URL to navigate to',
      mutate: (d) =>
        (d.interactiveData.submitElement.action = {
          actionType: 'urlNavigation',
          url: 'javascript:alert(1)',
        }),
      field: 'interactiveData.submitElement.action.url',
    },
    {
      name: 'a data: URL for an apiAction',
      mutate: (d) => (submitAction(d).url = 'data:text/html,<script>alert(1)</script>'),
      field: 'interactiveData.submitElement.action.url',
    },
    {
      name: 'an unknown action type',
      mutate: (d) => (submitAction(d).actionType = 'webhook'),
      field: 'interactiveData.submitElement.action.actionType',
    },
    {
      name: 'a method that is no HTTP verb',
      mutate: (d) => (submitAction(d).method = 'FETCH'),
      field: 'interactiveData.submitElement.action.method',
    },
    {
      name: 'a header value smuggling a second header',
      mutate: (d) => (submitAction(d).headers['X-Trace'] = 'a\r\nX-Admin: yes'),
      field: 'interactiveData.submitElement.action.headers.X-Trace',
    },
    {
      name: 'a header name with a space',
      mutate: (d) => (submitAction(d).headers['Bad Header'] = 'x'),
      field: 'interactiveData.submitElement.action.headers.Bad Header',
    },
    {
      name: 'a date range whose end comes before its start',
      mutate: (d) => (dateField(d).to = '2024-04-30'),
      field: 'interactiveData.formFields.4.to',
    },
    {
      name: 'a time zone that does not exist',
      mutate: (d) => (dateField(d).timezoneCode = 'Mars/Olympus_Mons'),
      field: 'interactiveData.formFields.4.timezoneCode',
    },
    {
      name: 'a UTC offset instead of a zone name',
      mutate: (d) => (dateField(d).timezoneCode = '+05:30'),
      field: 'interactiveData.formFields.4.timezoneCode',
    },
    {
      name: 'a bound that is not a date',
      mutate: (d) => (dateField(d).from = 'next tuesday'),
      field: 'interactiveData.formFields.4.from',
    },
    {
      name: 'a date that does not exist',
      mutate: (d) => (dateField(d).from1 = '2024-02-30'),
      field: 'interactiveData.formFields.4.from1',
    },
    {
      name: 'an hour past 23',
      mutate: (d) => (dateField(d).to = '2024-12-31 24:00'),
      field: 'interactiveData.formFields.4.to',
    },
    {
      name: 'a date bound on a time-only element',
      mutate: (d) =>
        Object.assign(dateField(d), { mode: 'time', from1: '09:00', from: '2024-05-01', to: '18:00' }),
      field: 'interactiveData.formFields.4.from',
    },
    {
      name: 'an unknown dateTime mode',
      mutate: (d) => (dateField(d).mode = 'week'),
      field: 'interactiveData.formFields.4.mode',
    },
    {
      name: 'a preset date outside the bounds',
      mutate: (d) => (dateField(d).defaultValue = '2025-01-01'),
      field: 'interactiveData.formFields.4.defaultValue',
    },
    {
      name: 'a text input of zero lines',
      mutate: (d) => (d.interactiveData.formFields[0].maxLines = 0),
      field: 'interactiveData.formFields.0.maxLines',
    },
    {
      name: 'an unknown element type',
      mutate: (d) => (d.interactiveData.formFields[0].elementType = 'slider'),
      field: 'interactiveData.formFields.0.elementType',
    },
    {
      name: 'a submit element that is not a button',
      mutate: (d) => (d.interactiveData.submitElement.elementType = 'textInput'),
      field: 'interactiveData.submitElement.elementType',
    },
    {
      name: 'an empty element id',
      mutate: (d) => (d.interactiveData.formFields[0].elementId = ''),
      field: 'interactiveData.formFields.0.elementId',
    },
    {
      name: 'a form without a title',
      mutate: (d) => delete d.interactiveData.title,
      field: 'interactiveData.title',
    },
    {
      name: 'a form without interactiveData',
      mutate: (d) => delete d.interactiveData,
      field: 'interactiveData',
    },
    {
      name: 'allowSenderInteraction given as a string',
      mutate: (d) => (d.allowSenderInteraction = 'yes'),
      field: 'allowSenderInteraction',
    },
  ])('rejects $name at $field', ({ mutate, field }) => {
    const data = createFormData();
    mutate(data);
    expect(rejectedFields(InteractiveFormData, data)).toEqual([field]);
  });

  it('explains which values a default may take', () => {
    const data = createFormData();
    data.interactiveData.formFields[1].defaultValue = 'london';
    const result = InteractiveFormData.safeParse(data);
    expect(result.success ? '' : result.error.issues[0]?.message).toMatch(/paris, rome/);
  });
});

describe('dateTime values and zones', () => {
  it.each([
    ['2024-05-01', 'date'],
    ['2024-05-01 09:30', 'date'],
    ['2024-05-01T09:30:15', 'dateTime'],
    ['23:59:59', 'time'],
  ] as const)('reads %s in %s mode', (text, mode) => {
    expect(parseDateTimeValue(text, mode)).toBeTypeOf('number');
  });

  it('orders a date before a later date-time of the same day', () => {
    const day = parseDateTimeValue('2024-05-01', 'date') ?? NaN;
    const evening = parseDateTimeValue('2024-05-01 18:00', 'date') ?? NaN;
    expect(day).toBeLessThan(evening);
  });

  it.each(['Europe/Paris', 'Asia/Kolkata', 'America/Argentina/Buenos_Aires', 'UTC'])(
    'knows %s as a zone',
    (zone) => {
      expect(isIanaTimeZone(zone)).toBe(true);
    },
  );

  it.each(['Europe/Atlantis', '+05:30', 'GMT+5:30', ''])('refuses %j as a zone', (zone) => {
    expect(isIanaTimeZone(zone)).toBe(false);
  });
});

describe('secrets in apiAction headers', () => {
  const action = ApiAction.parse(createFormData().interactiveData.submitElement.action);

  it('replaces the values of credential and identity headers', () => {
    expect(redactApiAction(action).headers).toMatchObject({
      apiKey: REDACTED_HEADER_VALUE,
      appId: REDACTED_HEADER_VALUE,
      onBehalfOf: REDACTED_HEADER_VALUE,
    });
  });

  it('keeps every header name, so a client knows the call needs them', () => {
    expect(Object.keys(redactApiAction(action).headers ?? {})).toEqual(Object.keys(action.headers ?? {}));
  });

  it('keeps Content-Type, which a client needs to build the body', () => {
    expect(redactApiAction(action).headers?.['Content-Type']).toBe('application/json');
  });

  it('treats header names case-insensitively', () => {
    const shouting = {
      ...action,
      headers: { 'CONTENT-TYPE': 'application/json', AUTHORIZATION: 'Bearer abc' },
    };
    expect(redactApiAction(shouting).headers).toEqual({
      'CONTENT-TYPE': 'application/json',
      AUTHORIZATION: REDACTED_HEADER_VALUE,
    });
  });

  it('leaves url, method, payload and dataKey as they are', () => {
    const { headers: _headers, ...rest } = redactApiAction(action);
    const { headers: _original, ...expected } = action;
    expect(rest).toEqual(expected);
  });

  it('redacts every button of a form, in its fields and its submit element', () => {
    const data = InteractiveFormData.parse(createFormData());
    const fieldButton = {
      elementType: 'button' as const,
      elementId: 'callHook',
      buttonText: 'Call',
      action: { ...action, headers: { apikey: 'field-secret' } },
    };
    data.interactiveData.formFields.push(fieldButton);
    const serialized = JSON.stringify(redactInteractiveForm(data));
    expect(serialized).not.toContain('rest-api-key-value');
    expect(serialized).not.toContain('field-secret');
  });

  it('does not touch the stored form it is given', () => {
    const data = InteractiveFormData.parse(createFormData());
    redactInteractiveForm(data);
    expect(JSON.stringify(data)).toContain('rest-api-key-value');
  });

  it('leaves urlNavigation buttons alone', () => {
    const bot = InteractiveFormData.parse(fixture('service-interface.bot-form-message.request.json').data);
    const redacted = redactInteractiveForm(bot);
    expect(redacted.interactiveData.formFields[4]).toEqual(bot.interactiveData.formFields[4]);
  });
});
