import { common } from './common';
import { app } from './app';
import { components } from './components';
import { errors } from './errors';
import { chat } from './chat';
import { sessions } from './sessions';
import { agents } from './agents';
import { files } from './files';
import { webhooks } from './webhooks';
import { memories } from './memories';
import { schedules } from './schedules';
import { usage } from './usage';
import { settings } from './settings';
import { webSearch } from './webSearch';
import { setup } from './setup';
import { developer } from './developer';
import { desktop } from './desktop';
import { voice } from './voice';
import { searchModels } from './searchModels';

/** English, the app's first language: every key the app has, one file per screen or part. */
export const en = { common, app, components, errors, chat, sessions, agents, files, webhooks, memories, schedules, usage, settings, webSearch, setup, developer, desktop, voice, searchModels };
