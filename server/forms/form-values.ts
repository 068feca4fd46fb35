import type { FormElement, InteractiveFormData } from '../../shared/interactive.js';
import { isFilledValue, type FormValues } from '../../shared/interactive-values.js';
import { badRequest } from '../errors.js';

function checkValue(field: FormElement, value: string | string[]): void {
  const path = `formData.${field.elementId}`;
  switch (field.elementType) {
    case 'checkbox': {
      if (!Array.isArray(value)) throw badRequest(path, 'a checkbox answers with a list of option values');
      const known = new Set(field.options.map((option) => option.value));
      const unknown = value.find((item) => !known.has(item));
      if (unknown !== undefined) throw badRequest(path, `"${unknown}" is not one of the options`);
      return;
    }
    case 'dropdown':
    case 'singleSelect':
      if (typeof value !== 'string' || !field.options.some((option) => option.value === value)) {
        throw badRequest(path, 'must be one of the option values');
      }
      return;
    case 'button':
      throw badRequest(path, 'a button has no value');
    default:
      if (typeof value !== 'string') throw badRequest(path, 'must be text');
  }
}

/**
 * Checks submitted values against the form as stored: only its fields, values of the right kind
 * (option values for choices), and every field not marked optional filled in.
 */
export function checkFormValues(form: InteractiveFormData, values: FormValues): void {
  const fields = new Map(form.interactiveData.formFields.map((field) => [field.elementId, field]));
  for (const [elementId, value] of Object.entries(values)) {
    const field = fields.get(elementId);
    if (field === undefined) throw badRequest(`formData.${elementId}`, 'the form has no such field');
    checkValue(field, value);
  }
  for (const field of fields.values()) {
    if (
      field.elementType !== 'button' &&
      field.optional !== true &&
      !isFilledValue(values[field.elementId])
    ) {
      throw badRequest(`formData.${field.elementId}`, 'is required');
    }
  }
}
