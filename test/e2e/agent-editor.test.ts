/**
 * The agent editor in Chromium against `serve`: the built-in Chat agent shows what a person sets
 * (name, instructions, model, temperature, tools, files) and none of the chat's own questions
 * (`root_id`, `messages`); saved untouched, its questions come back byte for byte. Its Tools are
 * one list in words: the web choices and each tool of an MCP server (server-filesystem on a temp
 * folder) with whether it asks first. Changes made there reach the API in the spec's shapes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { Locator } from 'playwright-core';
import { startChatEnv, type ChatEnv } from './support/chat-env';
import { e2eSetup } from './support/suite';
import { openScreen, pageFetch } from './support/page';
import { shotSizesAndThemes } from './support/shots';
import { seriousViolations } from './support/axe';
import { FILESYSTEM } from '../tools/helpers';
import { until } from '../fixtures/until';
import { limit } from '../fixtures/until.js';

let env: ChatEnv;
const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-desk-e2e-editor-'));

/** Every text a person can read or has typed in the editor: its text and its fields' values. */
async function everythingShown(editor: Locator): Promise<string> {
  const values = await editor.locator('input:not([type=checkbox]):not([type=radio]), textarea').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  const options = await editor.locator('option').evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  return [await editor.innerText(), ...values, ...options].join('\n');
}

describe('agent editor', () => {
  const it = e2eSetup(async (own) => {
    own({ close: async () => fs.rmSync(folder, { recursive: true, force: true }) });
    env = own(await startChatEnv({ reply: 'Fine.' }));
  });

  let chat: any;
  let serverId = 0;

  it('the Chat agent shows its settings, no protocol question, and saves its questions unchanged', async () => {
    const { page } = env;
    const agents = (await pageFetch(page, 'GET', '/api/agents?type=chat&per_page=100')).json.data as any[];
    chat = agents.find((a) => a.slug === 'chat');
    expect(chat, 'the built-in Chat agent').toBeTruthy();
    expect(chat.questions.map((q: any) => q.name)).toEqual(['temperature', 'model', 'tools', 'root_id', 'messages']);
    const before = JSON.stringify(chat.questions);

    await openScreen(page, 'Agents', 'Agents');
    await page.getByTestId('agent-cards').locator('article').filter({ has: page.getByRole('heading', { name: chat.title, exact: true }) }).getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('form', { name: `Edit ${chat.title}` });
    await editor.getByTestId('agent-model-picker').waitFor();
    await page.waitForLoadState('networkidle');

    // No protocol: no row, field, value or word of root_id / messages, nothing to delete.
    const shown = await everythingShown(editor);
    for (const raw of ['root_id', 'messages', 'stored session', 'no-tools', 'internet', 'chat history']) expect(shown, `"${raw}" shown`).not.toContain(raw);
    expect(await editor.getByRole('button', { name: /Remove/ }).count()).toBe(0);
    expect(await editor.getByTestId('question-row').count()).toBe(0);

    // What a person sets, by the names people use.
    expect(await editor.getByLabel('Name', { exact: true }).inputValue()).toBe(chat.title);
    await editor.getByLabel('Instructions (system prompt)').waitFor();
    await editor.getByLabel('Model', { exact: true }).waitFor();
    expect(await editor.getByLabel('Temperature').locator('option').allTextContents()).toEqual(['0 (focused)', '0.25', '0.5', '0.75', '1 (creative)']);
    await editor.getByRole('group', { name: 'Tools' }).getByTestId('web-tool').first().waitFor();
    await editor.getByRole('group', { name: 'Files' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Saved as it is: the questions come back exactly as they were (order, keys, values).
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    const after = (await pageFetch(page, 'GET', `/api/agents/${chat.id}`)).json;
    expect(JSON.stringify(after.questions)).toBe(before);
    expect(after.tool_servers ?? []).toEqual([]);
  }, limit(60_000));

  it('lists the web tools and an MCP server’s tools in one Tools list, in words, and saves them in the spec’s shapes', async () => {
    const { page } = env;
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'Meeting moved to Thursday.');
    const made = await pageFetch(page, 'POST', '/api/mcp-servers', { name: 'Project files', command: process.execPath, args: [FILESYSTEM, folder], approval: 'ask' });
    expect(made.status).toBe(201);
    serverId = made.json.id;
    const tools = (await pageFetch(page, 'POST', `/api/mcp-servers/${serverId}/refresh`)).json.data.map((t: any) => t.name) as string[];
    expect(tools).toContain('read_text_file');
    expect(tools).toContain('list_directory');
    // A file to give the agent.
    const uploaded = await page.evaluate(async () => {
      const form = new FormData();
      form.append('file', new File(['Quarterly figures: up 4%.'], 'figures.txt', { type: 'text/plain' }));
      const res = await fetch('/api/files', { method: 'POST', body: form, credentials: 'same-origin', headers: { 'x-agent-desk': '1' } });
      return (await res.json()) as { id: number };
    });
    const before = (await pageFetch(page, 'GET', `/api/agents/${chat.id}`)).json.questions as any[];

    await openScreen(page, 'Agents', 'Agents');
    await page.getByTestId('agent-cards').locator('article').filter({ has: page.getByRole('heading', { name: chat.title, exact: true }) }).getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('form', { name: `Edit ${chat.title}` });
    const section = editor.getByTestId('agent-tools');
    const group = section.locator('[data-testid="mcp-tools-group"][data-name="Project files"]');
    await group.getByTestId('mcp-tool').first().waitFor({ timeout: limit(20_000) });

    // One list: the web choices and the server's tools, together, in plain words.
    const list = section.getByRole('list', { name: 'Tools' });
    expect(await list.getByTestId('web-tools').count()).toBe(1);
    expect(await list.getByTestId('mcp-tools-group').count()).toBe(1);
    const web = await section.getByTestId('web-tool').locator('.tool-name').allInnerTexts();
    expect(web.slice(0, 3)).toEqual(['No web tools', 'Web search', 'Search Wikipedia']);
    expect(await section.getByTestId('web-tool').nth(1).innerText()).toContain('Searches the web and reads the pages it finds.');
    const toolNames = await group.getByTestId('mcp-tool').locator('.tool-name').allInnerTexts();
    expect(toolNames).toHaveLength(tools.length);
    expect(toolNames).toContain('Read text file');
    expect(toolNames).toContain('List directory');
    const text = await everythingShown(section);
    for (const raw of ['no-tools', 'internet', 'read_text_file', 'list_directory', 'wikipedia']) expect(text, `"${raw}" shown`).not.toContain(raw);
    expect(await group.getByTestId('tool-approval').first().inputValue()).toBe('ask');
    expect(await seriousViolations(page)).toEqual([]);

    // Web search to start with; the server's tools but one; one tool runs unasked; the file.
    await section.getByRole('radio', { name: 'Web search' }).check();
    await group.getByRole('checkbox', { name: 'Use the tools of Project files' }).check();
    await group.getByRole('checkbox', { name: 'Write file', exact: true }).uncheck();
    await group.getByRole('combobox', { name: 'When List directory runs' }).selectOption('auto');
    await editor.getByTestId('agent-files').getByLabel('A file to add').selectOption(String(uploaded.id));
    await editor.getByRole('button', { name: 'Add file' }).click();
    await editor.getByTestId('agent-file').filter({ hasText: 'figures.txt' }).waitFor();
    for (const b of await page.getByRole('button', { name: 'Dismiss' }).all()) await b.click();
    await section.scrollIntoViewIfNeeded();
    await shotSizesAndThemes(page, 'agents-tools');
    await editor.getByRole('heading', { name: chat.title }).scrollIntoViewIfNeeded();
    await shotSizesAndThemes(page, 'agents-editor');
    await editor.getByRole('button', { name: 'Save', exact: true }).scrollIntoViewIfNeeded();
    await shotSizesAndThemes(page, 'agents-files');

    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    await editor.waitFor({ state: 'detached' });
    const after = (await pageFetch(page, 'GET', `/api/agents/${chat.id}`)).json;
    // Only the web tools' starting choice changed; the chat's own questions are as they were.
    const toolsQ = before.find((q) => q.name === 'tools');
    expect(after.questions).toEqual(before.map((q) => (q.name === 'tools' ? { ...toolsQ, default: 'internet' } : q)));
    expect(after.tool_servers).toEqual([{ server_id: serverId, tools: tools.filter((t) => t !== 'write_file') }]);
    const server = (await pageFetch(page, 'GET', `/api/mcp-servers/${serverId}`)).json;
    expect(server).toMatchObject({ approval: 'ask', always_tools: ['list_directory'] });
    const files = await until('the file linked to the agent', async () => {
      const set = (await pageFetch(page, 'GET', `/api/agents/${chat.id}/files`)).json;
      return set.files.length ? set.files : null;
    });
    expect(files.map((f: any) => f.id)).toEqual([uploaded.id]);
    expect(env.problems).toEqual([]);
  }, limit(90_000));
});
