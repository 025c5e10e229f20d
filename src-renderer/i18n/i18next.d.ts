import 'i18next';
import type { en } from './en';

// Keys of t() are checked against the English catalog; a missing or misspelt key is a type error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    returnNull: false;
  }
}
