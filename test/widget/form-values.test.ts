import { describe, expect, it } from 'vitest';
import { goalCompleted } from '../../shared/interactive-values.js';
import type { InteractionGoal, InteractiveData } from '../../shared/interactive.js';
import { filledValues, initialValues, toInputValue, validateForm } from '../../widget/form-values.js';
import { en as strings } from '../../widget/locales/en.js';

const form: InteractiveData = {
  title: 'Book a demo',
  formFields: [
    { elementType: 'textInput', elementId: 'name', label: 'Name', maxLines: 2 },
    {
      elementType: 'dropdown',
      elementId: 'size',
      label: 'Size',
      options: [{ value: 's', label: 'Small' }],
      defaultValue: 's',
    },
    {
      elementType: 'checkbox',
      elementId: 'topics',
      label: 'Topics',
      optional: true,
      options: [{ value: 'a', label: 'A' }],
    },
    {
      elementType: 'singleSelect',
      elementId: 'plan',
      label: 'Plan',
      options: [{ value: 'free', label: 'Free' }],
    },
    {
      elementType: 'dateTime',
      elementId: 'when',
      label: 'When',
      mode: 'dateTime',
      from: '2030-01-01 09:00',
      to: '2030-12-31 17:00',
    },
    { elementType: 'button', elementId: 'help', buttonText: 'Help' },
  ],
  submitElement: { elementType: 'button', elementId: 'submit', buttonText: 'Book' },
};

const filled = { name: 'Ada', size: 's', topics: [], plan: 'free', when: '2030-06-01T10:00' };

describe('form values', () => {
  it('start from the defaults, with nothing for buttons', () => {
    expect(initialValues(form)).toEqual({ name: '', size: 's', topics: [], plan: '', when: '' });
  });

  it('pass when every required field is filled within its limits', () => {
    expect(validateForm(form, filled, strings)).toEqual({});
  });

  it('name every empty required field, but not optional ones', () => {
    expect(validateForm(form, initialValues(form), strings)).toEqual({
      name: strings.required,
      plan: strings.required,
      when: strings.required,
    });
  });

  it('refuse more lines than the text input allows', () => {
    expect(validateForm(form, { ...filled, name: 'a\nb\nc' }, strings)).toEqual({
      name: 'Use at most 2 lines.',
    });
  });

  it('refuse a date before the first allowed one, naming the bound', () => {
    expect(validateForm(form, { ...filled, when: '2029-12-31T23:00' }, strings)).toEqual({
      when: 'Choose 2030-01-01 09:00 or later.',
    });
  });

  it('refuse a date after the last allowed one', () => {
    expect(validateForm(form, { ...filled, when: '2030-12-31T17:01' }, strings).when).toBe(
      'Choose 2030-12-31 17:00 or earlier.',
    );
  });

  it('refuse an option the form does not offer', () => {
    expect(validateForm(form, { ...filled, plan: 'gold' }, strings)).toEqual({ plan: strings.required });
  });
});

describe('submitted values', () => {
  it('leave out the empty answers of optional fields', () => {
    expect(filledValues({ name: 'Ada', topics: [], note: ' ' })).toEqual({ name: 'Ada' });
  });
});

describe('date and time bounds', () => {
  it('become the values date, time and date-time inputs use', () => {
    expect(toInputValue('2030-01-01 09:00', 'dateTime')).toBe('2030-01-01T09:00');
    expect(toInputValue('2030-01-01', 'dateTime')).toBe('2030-01-01T00:00');
    expect(toInputValue('2030-01-01 09:00', 'date')).toBe('2030-01-01');
    expect(toInputValue('09:30:15', 'time')).toBe('09:30:15');
    expect(toInputValue('noon', 'time')).toBeUndefined();
  });
});

describe('interaction goals', () => {
  const at = (elementId: string) => ({ elementId, interactedAt: 1 });

  it('allOf needs every listed element', () => {
    const goal: InteractionGoal = { type: 'allOf', elementIds: ['a', 'b'] };
    expect([goalCompleted(goal, [at('a')]), goalCompleted(goal, [at('a'), at('b')])]).toEqual([false, true]);
  });

  it('anyOf needs one of the listed elements', () => {
    expect(goalCompleted({ type: 'anyOf', elementIds: ['a', 'b'] }, [at('b')])).toBe(true);
  });

  it('anyAction needs any interaction, none is never met', () => {
    expect(goalCompleted({ type: 'anyAction', elementIds: [] }, [at('x')])).toBe(true);
    expect(goalCompleted({ type: 'none', elementIds: [] }, [at('x')])).toBe(false);
  });
});
