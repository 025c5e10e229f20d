import { common } from './common';
import { app } from './app';
import { settings } from './settings';

/** English, the app's first language: every key the app has, one file per screen or part. */
export const en = { common, app, settings };
