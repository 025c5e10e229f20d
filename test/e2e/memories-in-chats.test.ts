/**
 * Which collections chats use, as a person meets it in Chromium against `serve`: a collection left
 * out of chats (as one an import brings) shows its "Use in chats" switch off, the switch turns it on
 * and off again (the platform's listing follows), and deleting a collection that chats do not use
 * says that its memories will be used once they move to Default. Screenshots at 1280 and 1024, both themes.
 */
import { describe, expect } from 'vitest';
import { startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { limit, until } from '../fixtures/until.js';

let env: ChatEnv;

describe('memory collections used in chats', () => {
  const it = e2eSetup(async (own) => {
    env = own(await startChatEnv({ reply: 'Fine.' }));
  });

  it("a collection left out of chats shows its switch off; the switch turns it on and off; deleting it says its memories will be used", async () => {
    const { page } = env;
    await openScreen(page, 'Memories', 'Memories');
    // What an import leaves: a collection of its own, out of chats, holding a memory.
    const made = await pageFetch(page, 'POST', '/api/memory-collections', { name: 'Imported old-laptop' });
    expect(made.status).toBe(200);
    const id = made.json.collection.id;
    expect((await pageFetch(page, 'PUT', `/api/memory-collections/${id}`, { name: 'Imported old-laptop', in_context: false })).status).toBe(200);
    expect((await pageFetch(page, 'POST', '/api/memories', { memory: 'My bank PIN is 4321.', collection_id: id })).status).toBe(200);
    expect((await pageFetch(page, 'POST', '/api/memory-collections', { name: 'Recipes' })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Memories' }).waitFor({ timeout: limit(10_000) });

    const imported = page.getByRole('checkbox', { name: 'Use “Imported old-laptop” in chats' });
    const recipes = page.getByRole('checkbox', { name: 'Use “Recipes” in chats' });
    await imported.waitFor({ timeout: limit(10_000) });
    expect(await imported.isChecked()).toBe(false);
    expect(await recipes.isChecked()).toBe(true);
    await shotSizesAndThemes(page, 'memories-in-chats-off');

    const listed = async () => (await pageFetch(page, 'GET', '/api/memory-collections?per_page=50')).json.collections.find((c: { id: number }) => c.id === id);
    await imported.click();
    await page.getByText('Chats now use the memories in “Imported old-laptop”.').waitFor({ timeout: limit(10_000) });
    expect(await listed()).toMatchObject({ in_context: true });
    await imported.click();
    await page.getByText('Chats no longer use the memories in “Imported old-laptop”.').waitFor({ timeout: limit(10_000) });
    expect(await listed()).toMatchObject({ in_context: false });
    await until('the switch to read off', async () => !(await imported.isChecked()));

    await page.getByRole('button', { name: 'Delete Imported old-laptop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Imported old-laptop”?' });
    await dialog.waitFor({ timeout: limit(10_000) });
    expect(await dialog.innerText()).toContain('Its one memory moves to Default. Default is used in chats, so it will be too.');
    await shotSizesAndThemes(page, 'memories-in-chats-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  }, limit(90_000));
});
