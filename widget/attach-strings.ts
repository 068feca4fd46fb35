import type { Language } from './i18n.js';

/** The texts of <parley-attachments>, in its own chunk: pages that never send files load none of them. */
const en = {
  toSend: 'Files to send',
  remove: 'Remove {name}',
  sending: 'Sending {names}',
  cancel: 'Cancel sending {names}',
  dismiss: 'Dismiss',
  tooLarge: 'Not sent: the files of a message may have {max} together, and {names} have more.',
  typeNotAllowed: 'Not sent: files like {name} are not accepted here.',
  failed: 'Not sent: {reason}',
};

export const ATTACH_STRINGS: Record<Language, Record<keyof typeof en, string>> = {
  en,
  de: {
    toSend: 'Zu sendende Dateien',
    remove: '{name} entfernen',
    sending: '{names} wird gesendet',
    cancel: 'Senden von {names} abbrechen',
    dismiss: 'Schließen',
    tooLarge: 'Nicht gesendet: Die Dateien einer Nachricht dürfen zusammen {max} haben, {names} haben mehr.',
    typeNotAllowed: 'Nicht gesendet: Dateien wie {name} werden hier nicht angenommen.',
    failed: 'Nicht gesendet: {reason}',
  },
};
