/**
 * What "the renderer gets nothing of Node" means for a window's webPreferences, stated once for
 * the unit test of the options and the test of the built app. Written as the settings that must be
 * on and those that must be off, independently of how window.ts spells its options.
 */
import { expect } from 'vitest';

const MUST_BE_ON = ['contextIsolation', 'sandbox', 'webSecurity'] as const;
const MUST_BE_OFF = ['nodeIntegration', 'nodeIntegrationInWorker', 'nodeIntegrationInSubFrames', 'allowRunningInsecureContent', 'webviewTag'] as const;

export function expectIsolated(webPreferences: object | undefined, preload: string): void {
  const prefs: Record<string, unknown> = { ...webPreferences };
  expect(prefs.preload, 'the preload bridge').toBe(preload);
  for (const key of MUST_BE_ON) expect(prefs[key], `webPreferences.${key}`).toBe(true);
  for (const key of MUST_BE_OFF) expect(prefs[key], `webPreferences.${key}`).toBe(false);
}
