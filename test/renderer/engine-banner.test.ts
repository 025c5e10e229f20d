// @vitest-environment jsdom
/** The page hears the engine (the platform process) stop and come back, through the bridge. */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { AgentDeskBridge, EngineState } from '../../src-preload/api';
import { watchEngine } from '../../src-renderer/api/bridge-transport';
import { EngineBanner } from '../../src-renderer/components/EngineBanner';

function bridgeWithEngine() {
  const listeners = new Set<(s: EngineState) => void>();
  const bridge = { onEngine: (l: (s: EngineState) => void) => (listeners.add(l), () => void listeners.delete(l)) } as unknown as AgentDeskBridge;
  return { bridge, tell: (s: EngineState) => listeners.forEach((l) => l(s)), count: () => listeners.size };
}

describe('engine state in the page', () => {
  it('watchEngine passes the bridge news on and stops listening when asked; without a bridge nothing happens', () => {
    const { bridge, tell, count } = bridgeWithEngine();
    const got: EngineState[] = [];
    const off = watchEngine((s) => got.push(s), bridge);
    tell({ running: false, message: 'down' });
    tell({ running: true });
    off();
    tell({ running: false });
    expect(got).toEqual([{ running: false, message: 'down' }, { running: true }]);
    expect(count()).toBe(0);
    expect(() => watchEngine(() => {}, undefined)()).not.toThrow();
  });

  it('shows the banner while the engine is down, and hides it when it runs again', async () => {
    const { bridge, tell } = bridgeWithEngine();
    (window as { agentDesk?: AgentDeskBridge }).agentDesk = bridge;
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const el = document.createElement('div');
    const root = createRoot(el);
    await act(async () => root.render(createElement(EngineBanner)));
    expect(el.textContent).toBe('');
    await act(async () => tell({ running: false, message: "Agent Desk's engine stopped and is restarting…" }));
    expect(el.querySelector('[role="status"]')?.textContent).toBe("Agent Desk's engine stopped and is restarting…");
    await act(async () => tell({ running: true }));
    expect(el.textContent).toBe('');
    root.unmount();
    delete (window as { agentDesk?: AgentDeskBridge }).agentDesk;
  });
});
