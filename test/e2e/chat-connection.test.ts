/**
 * Browser mode, the platform out of reach: the page (served through a loopback relay the test
 * can cut, as a stopped server or a dropped network does) shows one banner, keeps the window and
 * the draft, loads a screen it had not loaded yet once the platform is back, and clears the
 * banner by itself. Never a blank window.
 */
import net from 'node:net';
import { describe, expect } from 'vitest';
import { startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { limit } from '../fixtures/until.js';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolationsInBothThemes } from './support/axe';

/** A TCP relay on loopback to `target`; `cut()` closes it and every connection through it, `mend()` listens again on the same port. */
async function relay(target: URL): Promise<{ url: string; cut(): Promise<void>; mend(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const listen = async () => {
    server = net.createServer((inbound) => {
      const outbound = net.connect(Number(target.port), target.hostname);
      for (const s of [inbound, outbound]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.pipe(outbound).pipe(inbound);
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', () => r()));
    port = (server!.address() as net.AddressInfo).port;
  };
  const cut = async () => {
    const s = server;
    server = null;
    for (const x of sockets) x.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  await listen();
  return { url: `http://127.0.0.1:${port}`, cut, mend: listen, close: cut };
}

let env: ChatEnv;
let link: Awaited<ReturnType<typeof relay>>;

describe('browser mode: the platform out of reach', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'Hello.' }));
    link = own(await relay(new URL(env.serve.url)));
    // The session cookie is per host, not per port: the relay's address is signed in too.
    await env.page.goto(`${link.url}/#/chat`);
    await env.page.getByRole('heading', { level: 1, name: 'Chat' }).waitFor({ timeout: limit(20_000) });
  });

  it('one banner while it is gone, the window and the draft kept; a screen not loaded yet opens once it is back; the banner clears itself', async () => {
    const { page } = env;
    const box = page.locator('#chat-input');
    await box.click();
    await page.keyboard.type('Half a thought');
    await link.cut();
    // A screen whose code was never loaded: the banner, not a blank window.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: /^Files/ }).click();
    const banner = page.getByTestId('engine-banner');
    await banner.waitFor({ timeout: limit(15_000) });
    expect(await banner.innerText()).toBe('Agent Desk is not answering. Your work here is kept; this clears itself once it is back.');
    expect(await page.getByRole('navigation', { name: 'Screens' }).isVisible()).toBe(true);
    expect(await page.locator('body').innerText()).not.toContain('Unable to preload');
    expect(await page.getByTestId('engine-banner').count()).toBe(1);
    await shotSizesAndThemes(page, 'connection-lost');
    expect(await seriousViolationsInBothThemes(page)).toEqual({});
    await link.mend();
    await page.getByRole('heading', { level: 1, name: 'Files' }).waitFor({ timeout: limit(30_000) });
    await banner.waitFor({ state: 'detached', timeout: limit(15_000) });
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: /^Chat/ }).click();
    await expect.poll(() => box.inputValue(), { timeout: limit(10_000) }).toBe('Half a thought');
  }, limit(120_000));
});
