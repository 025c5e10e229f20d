import type { Platform } from '../platform.js';

/** What a transport serves: the modules' services, with the config and log they share. */
export type TransportDeps = Pick<Platform, 'services' | 'config' | 'log'>;
