// @vitest-environment jsdom
/**
 * The in-app link to a screen (components/ScreenLink.tsx): a real link with the screen's address,
 * also when a sentence's <to> tag is one, that the app follows in place (no page load).
 */
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Trans, applyLocale } from '../../src-renderer/i18n';
import { ScreenLink } from '../../src-renderer/components/ScreenLink';
import { useNav } from '../../src-renderer/stores/nav';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => act(() => root.render(null)));

describe('ScreenLink', () => {
  it('inside a translated sentence: the words of its tag, the screen’s address, and a click that opens the screen in place', async () => {
    await applyLocale('en');
    await act(() => root.render(<Trans i18nKey="agents.toolsField.noServers" components={{ to: <ScreenLink screen="settings" sub="tools" /> }} />));
    const a = host.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('#/settings/tools');
    expect(a.textContent).toBe('Settings → MCP servers');
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    await act(() => a.dispatchEvent(click));
    expect(click.defaultPrevented).toBe(true);
    expect(useNav.getState()).toMatchObject({ screen: 'settings', sub: 'tools' });
    expect(location.hash).toBe('#/settings/tools');
  });

  it('without a place, opens the screen where it was left', async () => {
    await act(() => root.render(<ScreenLink screen="files">Files</ScreenLink>));
    const a = host.querySelector('a')!;
    expect(a.getAttribute('href')).toBe('#/files');
    await act(() => a.click());
    expect(useNav.getState().screen).toBe('files');
  });
});
